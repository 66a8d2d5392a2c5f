import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { trackSideFiles } from "./sqlite-side-files.js";

const dir = mkdtempSync(join(tmpdir(), "obelisk-side-rule-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let counter = 0;

/** A store file with no side files, tracked as a read-only connection opens it; its side files made `mode`. */
function readAndLeave(mode: number): { file: string; close: () => void } {
  const file = join(dir, `store-${++counter}.db`);
  writeFileSync(file, "");
  const close = trackSideFiles(file);
  for (const side of ["-wal", "-shm"]) {
    writeFileSync(`${file}${side}`, "");
    chmodSync(`${file}${side}`, mode);
  }
  return { file, close };
}

describe("a read-only connection's side files: removed only when they stop other users' writers", () => {
  it("removes the -wal and -shm it created when only this user may write them (0644)", () => {
    const { file, close } = readAndLeave(0o644);
    close();
    expect([existsSync(`${file}-wal`), existsSync(`${file}-shm`)]).toEqual([false, false]);
  });

  it("leaves ones group or others may write (0664, 0666): they stop nobody, and a writer may be using them", () => {
    for (const mode of [0o664, 0o666]) {
      const { file, close } = readAndLeave(mode);
      close();
      expect([existsSync(`${file}-wal`), existsSync(`${file}-shm`)]).toEqual([true, true]);
    }
  });

  it("leaves them when the -wal grew meanwhile (a writer committed through them)", () => {
    const { file, close } = readAndLeave(0o644);
    writeFileSync(`${file}-wal`, "frames");
    close();
    expect([existsSync(`${file}-wal`), existsSync(`${file}-shm`)]).toEqual([true, true]);
  });
});
