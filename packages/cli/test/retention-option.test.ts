import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createEngine } from "obelisk";
import { createSqliteStore } from "obelisk/sqlite";
import { describe, expect, it } from "vitest";
import { expectOneLineError, inProcess, inProcessJson, tempDir } from "./cli-harness.js";

// Decision 0109 (0104's open point, CLI README "retention"): the CLI opened every store with the library's
// default retention, so a `run` (or any read) against a service's file with longer age limits evicted the
// service's older outputs for good. `--retention` and OBELISK_RETENTION give the CLI the service's limits.

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** A store file holding `†calls.fetch` (value 7) written two hours ago, as a service with 24-hour outputs leaves it. */
async function serviceFile(): Promise<{ cwd: string; file: string }> {
  const cwd = tempDir();
  const file = join(cwd, "s.db");
  const store = await createSqliteStore(file, {
    now: () => Date.now() - 2 * HOUR,
    retention: { maxCallOutputAgeMs: DAY },
  });
  const engine = createEngine({ tools: [{ name: "fetch", run: () => 7 }], store });
  await engine.run([{ _tool: "fetch", _id: "fetch" }], { threadId: "t" });
  await engine.close();
  writeFileSync(join(cwd, "tools.mjs"), 'export default [{ name: "give", run: (args) => args.v }];\n');
  writeFileSync(join(cwd, "plan.json"), '[{ "_tool": "give", "v": 1, "_outputPath": "†state.x" }]');
  return { cwd, file };
}

const get = ["state", "get", "--ref", "†calls.fetch", "--thread", "t", "--store", "sqlite:s.db"];
const run = ["run", "plan.json", "--tools", "tools.mjs", "--thread", "t", "--store", "sqlite:s.db"];

describe.concurrent("--retention and OBELISK_RETENTION: the CLI uses the service's retention", {
  timeout: 120_000,
}, () => {
  it("without them a read answers the two-hour-old output evicted and a run evicts it for good", async () => {
    const { cwd } = await serviceFile();
    const read = await inProcess(get, cwd);
    expect(read.code).toBe(1);
    expect(read.stdout + read.stderr).toContain("maxCallOutputAgeMs");
    expect((await inProcess(run, cwd)).code).toBe(0);
    // gone even for a reader with the service's limits
    expect((await inProcess([...get, "--retention", `maxCallOutputAgeMs=${DAY}`], cwd)).code).toBe(1);
  });

  it("--retention: state get reads it and run leaves it, with the service's 24 hours", async () => {
    const { cwd } = await serviceFile();
    const flag = ["--retention", `maxCallOutputAgeMs=${DAY}`];
    const read = await inProcessJson([...get, ...flag], cwd);
    expect(read.code).toBe(0);
    expect(read.json).toMatchObject({ value: 7 });
    expect((await inProcess([...run, ...flag], cwd)).code).toBe(0);
    expect((await inProcessJson([...get, ...flag], cwd)).json).toMatchObject({ value: 7 });
    // repeatable: a later value of a field wins
    const twice = ["--retention", "maxCallOutputAgeMs=1000,maxAgeMs=5", ...flag];
    expect((await inProcessJson([...get, ...twice], cwd)).json).toMatchObject({ value: 7 });
  });

  it("OBELISK_RETENTION does the same for every command; a --retention field wins over it", async () => {
    const { cwd } = await serviceFile();
    const env = { OBELISK_RETENTION: `maxCallOutputAgeMs=${DAY},maxAgeMs=Infinity` };
    expect((await inProcess(get, cwd, env)).code).toBe(0);
    expect((await inProcess(run, cwd, env)).code).toBe(0);
    expect((await inProcess(get, cwd, env)).code).toBe(0);
    // the flag's one-hour age over the variable's day: evicted
    expect((await inProcess([...get, "--retention", `maxCallOutputAgeMs=${HOUR}`], cwd, env)).code).toBe(1);
  });

  it("count bounds apply after a run: maxCallOutputs=1 keeps one output of the run's two", async () => {
    const { cwd } = await serviceFile();
    writeFileSync(
      join(cwd, "out.json"),
      '[{ "_tool": "give", "_id": "a", "v": 1 }, { "_tool": "give", "_id": "b", "v": 2 }]',
    );
    const args = ["--thread", "t", "--store", "sqlite:s.db", "--retention", "maxCallOutputs=1"];
    expect((await inProcess(["run", "out.json", "--tools", "tools.mjs", ...args], cwd)).code).toBe(0);
    const summary = await inProcessJson(["state", "summary", ...args], cwd);
    const refs = (summary.json.entries as { reference: string }[]).map((entry) => entry.reference);
    // without the bound: †calls.a and †calls.b (the two-hour-old †calls.fetch is past the default hour)
    expect(refs.filter((ref) => ref.startsWith("†calls."))).toHaveLength(1);
  });

  it.each([
    [
      "maxCallOutputAgeMs",
      'expected <name>=<n> (e.g. maxCallOutputAgeMs=86400000), got "maxCallOutputAgeMs"',
    ],
    ["maxCallOutputAge=5", "unknown retention field maxCallOutputAge (did you mean"],
    [
      "maxAgeMs=-1",
      'retention maxAgeMs must be a whole number from 0 to 9007199254740991 or Infinity (no bound), got "-1"',
    ],
    ["maxBytes=1.5", "retention maxBytes must be a whole number"],
    [
      "maxCallOutputAgeMs=24h",
      "(maxCallOutputAgeMs counts milliseconds: for 24h, maxCallOutputAgeMs=86400000)",
    ],
    ["maxAgeMs=1,", "an empty field (a comma at the end, or two in a row): give name=n between the commas"],
  ])("--retention %s is a usage error (exit 2), nothing created", async (value, message) => {
    const cwd = tempDir();
    writeFileSync(join(cwd, "tools.mjs"), 'export default [{ name: "give", run: (args) => args.v }];\n');
    writeFileSync(join(cwd, "plan.json"), '[{ "_tool": "give", "v": 1 }]');
    const result = await inProcess(
      ["run", "plan.json", "--tools", "tools.mjs", "--store", "sqlite:new.db", "--retention", value],
      cwd,
    );
    expectOneLineError(result, 2);
    expect(result.stderr).toContain(message);
    expect(existsSync(join(cwd, "new.db"))).toBe(false);
  });

  it("a malformed OBELISK_RETENTION is a usage error naming the variable, before anything is opened", async () => {
    const cwd = tempDir();
    writeFileSync(join(cwd, "tools.mjs"), 'export default [{ name: "give", run: (args) => args.v }];\n');
    writeFileSync(join(cwd, "plan.json"), '[{ "_tool": "give", "v": 1 }]');
    const result = await inProcess(
      ["run", "plan.json", "--tools", "tools.mjs", "--store", "sqlite:new.db"],
      cwd,
      {
        OBELISK_RETENTION: "maxCallOutputAgeMs=1d",
      },
    );
    expectOneLineError(result, 2);
    expect(result.stderr).toContain("OBELISK_RETENTION: retention maxCallOutputAgeMs must be a whole number");
    expect(result.stderr).toContain("maxCallOutputAgeMs=86400000");
    expect(existsSync(join(cwd, "new.db"))).toBe(false);
    // a read-only command too
    const read = await inProcess(["runs", "list", "--store", "sqlite:new.db"], cwd, {
      OBELISK_RETENTION: "nope=1",
    });
    expectOneLineError(read, 2);
    expect(read.stderr).toContain("OBELISK_RETENTION: unknown retention field nope");
  });
});
