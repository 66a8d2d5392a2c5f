import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cliInProcess, tempDir } from "./cli-harness.js";

const cli = cliInProcess;
const json = async (args: string[], cwd: string) => {
  const { code, stdout } = await cli([...args, "--format", "json"], cwd);
  return { code, json: JSON.parse(stdout) as Record<string, unknown> };
};
const store = ["--store", "sqlite:s.db"];

/** The store file and its `-wal` on disk, in bytes. */
const onDisk = (file: string): number =>
  statSync(file).size + (existsSync(`${file}-wal`) ? statSync(`${file}-wal`).size : 0);

/** A store whose thread `big` held 2 MB of values and was deleted: its pages are free, the file keeps them. */
async function deletedHistory(): Promise<string> {
  const cwd = tempDir();
  for (let n = 0; n < 10; n++) {
    const value = JSON.stringify(`${n}:${"v".repeat(200_000)}`);
    const set = await cli(
      ["state", "set", ...store, "--thread", "big", "--ref", `†state.v${n}`, "--value", value],
      cwd,
    );
    expect(set.code).toBe(0);
  }
  expect((await cli(["state", "set", ...store, "--ref", "†state.kept", "--value", "1"], cwd)).code).toBe(0);
  expect((await cli(["state", "delete", ...store, "--thread", "big"], cwd)).code).toBe(0);
  return cwd;
}

describe("obelisk state vacuum", () => {
  it("gives a SQLite file's free space back and says how much (text and json); the data stays", async () => {
    const cwd = await deletedHistory();
    const file = join(cwd, "s.db");
    const before = onDisk(file);
    expect(before).toBeGreaterThan(2_000_000);
    const vacuumed = await json(["state", "vacuum", ...store], cwd);
    expect(vacuumed).toEqual({
      code: 0,
      json: { ok: true, bytesBefore: before, bytesAfter: expect.any(Number), walBytesAfter: 0 },
    });
    const after = vacuumed.json.bytesAfter as number;
    expect(after).toBeLessThan(before / 10);
    expect(onDisk(file)).toBe(after);
    const got = await json(["state", "get", ...store, "--ref", "†state.kept"], cwd);
    expect(got.json).toEqual({ found: true, value: 1 });
    // the text: both sizes, KB under a MB
    const text = await cli(["state", "vacuum", ...store], cwd);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^✓ vacuumed s\.db: \d+\.\d KB → \d+\.\d KB\n$/);
  });

  it("a memory store has nothing to vacuum (exit 2, says so)", async () => {
    const cwd = tempDir();
    const refused = await json(["state", "vacuum", "--store", "memory"], cwd);
    expect(refused).toEqual({
      code: 2,
      json: {
        error: expect.objectContaining({
          code: "USAGE",
          message: expect.stringContaining("a memory store has no file: nothing to vacuum"),
        }),
      },
    });
  });

  it("a missing --store file, or a missing default store, is refused (exit 2) and not created", async () => {
    const cwd = tempDir();
    const typo = await json(["state", "vacuum", "--store", "sqlite:typo.db"], cwd);
    expect(typo.code).toBe(2);
    expect(typo.json.error).toMatchObject({
      code: "USAGE",
      message: expect.stringContaining("store file typo.db does not exist"),
    });
    const fallback = await json(["state", "vacuum"], cwd);
    expect(fallback.code).toBe(2);
    expect(fallback.json.error).toMatchObject({
      code: "USAGE",
      message: expect.stringContaining("store file .obelisk/state.db does not exist: nothing to vacuum"),
    });
    expect(readdirSync(cwd)).toEqual([]);
  });

  it("takes no --thread: it is the whole file (usage error)", async () => {
    const cwd = await deletedHistory();
    const refused = await json(["state", "vacuum", ...store, "--thread", "t"], cwd);
    expect(refused.code).toBe(2);
    expect(refused.json.error).toMatchObject({ code: "USAGE", message: expect.stringContaining("--thread") });
  });
});
