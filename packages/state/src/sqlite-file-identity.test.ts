import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
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
