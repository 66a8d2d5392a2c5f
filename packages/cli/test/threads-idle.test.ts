import { join } from "node:path";
import { createEngine } from "obelisk";
import { createSqliteStore } from "obelisk/sqlite";
import { describe, expect, it } from "vitest";
import { expectOneLineError, inProcess, inProcessJson, tempDir } from "./cli-harness.js";

// Decision 0104, Amended (stop 42 f3 #2): threads.list({ idleSince }) lists the threads idle since a time;
// `obelisk threads list --idle-for <ms>` asks for those idle that long (before: every thread was listed).

const DAY = 86_400_000;

/** A store file with thread "old" (its run ended two days ago) and thread "new" (its run ended now). */
async function twoThreads(): Promise<string> {
  const cwd = tempDir();
  const file = join(cwd, "s.db");
  let shift = 2 * DAY;
  const now = () => Date.now() - shift;
  const engine = createEngine({
    tools: [{ name: "echo", run: () => 1 }],
    store: await createSqliteStore(file, { now }),
    now,
  });
  await engine.run([{ _tool: "echo" }], { threadId: "old" });
  shift = 0;
  await engine.run([{ _tool: "echo" }], { threadId: "new" });
  await engine.close();
  return cwd;
}

describe("obelisk threads list --idle-for <ms>", () => {
  it("lists only the threads idle that long; without it every thread", async () => {
    const cwd = await twoThreads();
    const list = ["threads", "list", "--store", "sqlite:s.db"];
    const ids = (json: Record<string, unknown>) =>
      (json.threads as { threadId: string }[]).map((t) => t.threadId);
    expect(ids((await inProcessJson(list, cwd)).json)).toEqual(["new", "old"]);
    expect(ids((await inProcessJson([...list, "--idle-for", String(DAY)], cwd)).json)).toEqual(["old"]);
    expect(ids((await inProcessJson([...list, "--idle-for", String(3 * DAY)], cwd)).json)).toEqual([]);
    const text = await inProcess([...list, "--idle-for", String(3 * DAY)], cwd);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain("no thread in this store is idle that long");
  });

  it("a duration with a unit is a usage error giving its milliseconds", async () => {
    const result = await inProcess(["threads", "list", "--store", "memory", "--idle-for", "7d"], tempDir());
    expectOneLineError(result, 2);
    expect(result.stderr).toContain("(--idle-for counts milliseconds: for 7d, --idle-for 604800000)");
  });
});
