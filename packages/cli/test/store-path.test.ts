import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { makeStoreFolders } from "../src/store-path.js";
import { inProcess, tempDir } from "./cli-harness.js";

const dir = tempDir();
writeFileSync(join(dir, "afile"), "not a folder");
mkdirSync(join(dir, "afolder"));

const cli = (args: readonly string[]) => inProcess(args, dir);

/** `state set` of one value into `store` (a command that creates its store). */
const set = (store: string): string[] => [
  "state",
  "set",
  "--ref",
  "†state.x",
  "--value",
  "1",
  "--thread",
  "t",
  "--store",
  store,
];

describe("--store paths that cannot hold a store file are USAGE (exit 2) naming the path", () => {
  it.each([
    [
      "a folder in the path is a file",
      "sqlite:afile/x.db",
      `${join(dir, "afile")} is a file, not a folder`,
      false,
    ],
    [
      "the store is a folder",
      "sqlite:afolder",
      `${join(dir, "afolder")} is a folder, not a store file`,
      true,
    ],
  ])("%s", async (_case, store, message, exists) => {
    for (const args of exists ? [set(store), ["runs", "list", "--store", store]] : [set(store)]) {
      const { code, stderr } = await cli(args);
      expect(code).toBe(2);
      expect(stderr).toContain(`error [USAGE] cannot open store ${store}: ${message}`);
    }
  });

  // Node's recursive mkdir loops for ever under /proc (mkdir /proc/nope: ENOENT, mkdir /proc: EEXIST)
  it.skipIf(process.platform !== "linux")(
    "a folder that cannot be made (under /proc) ends at once",
    async () => {
      const { code, stderr } = await cli(set("sqlite:/proc/obelisk-nope/x.db"));
      expect(code).toBe(2);
      expect(stderr).toContain("cannot create the folder /proc/obelisk-nope (ENOENT)");
    },
  );

  it("a folder another process made first (EEXIST between the check and the mkdir) is no error", () => {
    const file = join(dir, "raced", "deeper", "x.db");
    const made: string[] = [];
    // the other process wins every race: the folder exists by the time this one asks for it
    const loser = (path: string) => {
      mkdirSync(path);
      made.push(path);
      throw Object.assign(new Error(`EEXIST: file already exists, mkdir '${path}'`), { code: "EEXIST" });
    };
    expect(() => makeStoreFolders(file, "sqlite:raced/deeper/x.db", loser)).not.toThrow();
    expect(made).toEqual([join(dir, "raced"), join(dir, "raced", "deeper")]);
  });

  it("missing folders of a new store are made, level by level", async () => {
    const { code } = await cli(set("sqlite:new/deep/x.db"));
    expect(code).toBe(0);
  });
});
