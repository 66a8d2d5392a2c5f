import { existsSync, mkdtempSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { asRunId } from "@obelisk/core";
import { afterAll, describe, expect, it } from "vitest";
import { RUN, runRecord, THREAD } from "./conformance/commit-fixtures.js";
import { createSqliteStore } from "./sqlite-store.js";

const dir = mkdtempSync(join(tmpdir(), "obelisk-identity-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const run = runRecord();

describe("sqlite: a store file deleted or replaced under an open store (review 5 L1)", () => {
  it.each(["deleted", "replaced"])(
    "a run cannot end or start on a %s file: STORE_ERROR, not a silent success",
    async (what) => {
      const file = join(dir, `${what}.db`);
      const store = createSqliteStore(file);
      await store.createRun(run);
      for (const suffix of ["", "-wal", "-shm"]) rmSync(`${file}${suffix}`, { force: true });
      if (what === "replaced") writeFileSync(file, "");
      const refusal = { code: "STORE_ERROR", data: { reason: what, file } };
      await expect(
        Promise.resolve().then(() => store.finishRun(asRunId(RUN), "succeeded", "t")),
      ).rejects.toMatchObject(refusal);
      await expect(store.lockThread(THREAD)).rejects.toMatchObject(refusal);
      await store.close();
    },
  );

  // told from the process's own descriptor of the file (Linux /proc/self/fd); elsewhere "deleted" (s33r)
  it.runIf(existsSync("/proc/self/fd")).each(["renamed", "renamed and replaced"])(
    "a %s file is named where it went: the run's records are there",
    async (what) => {
      const file = join(dir, `${what.replaceAll(" ", "-")}.db`);
      const movedTo = `${file}.moved`;
      const store = createSqliteStore(file);
      await store.createRun(run);
      renameSync(file, movedTo);
      if (what !== "renamed") writeFileSync(file, "");
      const failure = await Promise.resolve()
        .then(() => store.finishRun(asRunId(RUN), "succeeded", "t"))
        .catch((error: unknown) => error);
      const replaced = what !== "renamed";
      expect(failure).toMatchObject({
        code: "STORE_ERROR",
        message: `cannot finish run "${RUN}": the store file ${file} was renamed to ${movedTo} while this store had it open${replaced ? ` (${file} is another file now)` : ""}; its latest writes are in ${file}-wal, beside the old name`,
        hint: `move ${movedTo} back to ${file}${replaced ? ", in place of the file there now" : ""}, before any store opens it (SQLite pairs a file with the -wal of its name), then open the store again; a run that was going on is found interrupted, to resume`,
        data: { reason: "renamed", file, movedTo },
      });
      await expect(store.lockThread(THREAD)).rejects.toMatchObject({ data: { reason: "renamed", movedTo } });
      await store.close();
      // as the hint says: moved back, the file and its -wal are the store again, the run in it
      renameSync(movedTo, file);
      const back = createSqliteStore(file);
      expect((await back.getRun(asRunId(RUN)))?.status).toBe("interrupted");
      await back.close();
    },
  );

  it("an untouched file goes on as usual", async () => {
    const store = createSqliteStore(join(dir, "kept.db"));
    await store.createRun(run);
    const lock = await store.lockThread(THREAD);
    await lock.release();
    await store.finishRun(asRunId(RUN), "succeeded", "t");
    expect((await store.getRun(asRunId(RUN)))?.status).toBe("succeeded");
    await store.close();
  });
});
