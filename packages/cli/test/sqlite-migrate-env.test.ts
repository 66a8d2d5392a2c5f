import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { createSqliteStore } from "obelisk/sqlite";
import { describe, expect, it } from "vitest";
import { expectOneLineError, inProcess, ROOT, tempDir } from "./cli-harness.js";

// Decision 0072 gave createSqliteStore `migrate: false` for rolling deploys, but the CLI always migrated: an
// operator's `obelisk run` or `state set` of the new build upgraded the file the old replicas still share,
// which then refused it. OBELISK_SQLITE_MIGRATE=false keeps the file as it is.

const digest = (file: string): string => createHash("sha256").update(readFileSync(file)).digest("hex");

/** better-sqlite3, as the state package has it (to turn a store into one of schema version 1). */
const Sqlite = createRequire(join(ROOT, "packages/state/package.json"))("better-sqlite3") as new (
  file: string,
) => { exec(sql: string): void; close(): void };

/** A directory with a store file as a build of schema version 1 left it. */
async function olderStore(): Promise<{ cwd: string; file: string }> {
  const cwd = tempDir();
  const file = join(cwd, "state.db");
  await createSqliteStore(file).close();
  const db = new Sqlite(file);
  db.exec(
    "ALTER TABLE threads DROP COLUMN version; UPDATE meta SET value = '1' WHERE key = 'schema_version'",
  );
  db.close();
  writeFileSync(join(cwd, "tools.mjs"), 'export default [{ name: "give", run: () => 1 }];\n');
  writeFileSync(join(cwd, "plan.json"), '[{ "_tool": "give", "_outputPath": "†state.x" }]');
  return { cwd, file };
}

const writes = [
  ["run", "plan.json", "--tools", "tools.mjs", "--store", "sqlite:state.db"],
  ["state", "set", "--ref", "†state.y", "--value", "1", "--store", "sqlite:state.db"],
];

describe("OBELISK_SQLITE_MIGRATE=false: the CLI leaves an older store file as it is", () => {
  it("refuses a write to a file of an older schema version (exit 2), the file unchanged", async () => {
    const { cwd, file } = await olderStore();
    const before = digest(file);
    for (const args of writes) {
      const result = await inProcess(args, cwd, { OBELISK_SQLITE_MIGRATE: "false" });
      expectOneLineError(result, 2);
      expect(result.stderr).toContain("is a store of schema version 1, older than this Obelisk writes (2)");
      expect(result.stderr).toContain("without OBELISK_SQLITE_MIGRATE=false to bring it up to date");
      expect(digest(file)).toBe(before);
    }
    // unset (or true), the command brings it up to date, as before
    expect((await inProcess(writes[0] as string[], cwd, { OBELISK_SQLITE_MIGRATE: "true" })).code).toBe(0);
    expect(digest(file)).not.toBe(before);
  });

  it("another value is a usage error before anything is opened or created", async () => {
    const { cwd, file } = await olderStore();
    const before = digest(file);
    const result = await inProcess(writes[0] as string[], cwd, { OBELISK_SQLITE_MIGRATE: "no" });
    expectOneLineError(result, 2);
    expect(result.stderr).toContain('OBELISK_SQLITE_MIGRATE must be true or false, not "no"');
    expect(digest(file)).toBe(before);
  });
});
