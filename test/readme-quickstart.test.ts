import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createSqliteStore } from "obelisk/sqlite";
import { afterEach, describe, expect, it } from "vitest";
import { quickstart } from "../examples/quickstart/quickstart.js";

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

describe("the README's library example (examples/quickstart)", () => {
  it("validates, runs with the approved hash and summarizes", async () => {
    const { check, result, summary } = await quickstart();
    // validated before the input exists: the plan is valid, and the hash it approves is the one run
    expect(check).toMatchObject({ ok: true, diagnostics: [] });
    expect(result.planHash).toBe(check.planHash);
    expect(result.status).toBe("succeeded");
    expect(result.state).toEqual({ user: { id: "u1", name: "Ada" }, greeting: "HELLO ADA!" });
    expect(Object.values(result.calls).map((call) => call.status)).toEqual(["succeeded", "succeeded"]);
    // Newest first, with type, count and a preview of each variable.
    expect(summary.indexOf("### †state.greeting")).toBeLessThan(summary.indexOf("### †state.user"));
    expect(summary).toContain("type: string, 10 characters");
    expect(summary).toContain('preview: {"id":"u1","name":"Ada"}');
  });

  it("runs as the README shows it: a SQLite file in the .obelisk folder it creates first", async () => {
    const project = mkdtempSync(join(tmpdir(), "obelisk-readme-"));
    folders.push(project);
    const folder = join(project, ".obelisk");
    mkdirSync(folder, { recursive: true });
    const { result } = await quickstart(await createSqliteStore(join(folder, "state.db")));
    expect(result.status).toBe("succeeded");
    expect(result.state.greeting).toBe("HELLO ADA!");
  });
});
