import { asRunId } from "@obelisk/core";
import { afterAll, describe, expect, it } from "vitest";
import { sqliteStoreFiles } from "./__fixtures__/sqlite-store-files.js";
import { runRecord, THREAD } from "./conformance/commit-fixtures.js";
import { RESUME_OF } from "./internal/sqlite-tables.js";
import type { StateStore } from "./store-types.js";

const { storeFile, closeAll } = sqliteStoreFiles("obelisk-runs-cursor-");
afterAll(closeAll);

/** `resumedBy`'s query, as the store runs it. */
const RESUMED_BY = `SELECT run_id, thread_id, record FROM runs WHERE ${RESUME_OF} = ? ORDER BY seq DESC LIMIT 1`;
/** A page of a thread's runs, as `listRuns({ threadId, before, limit })` runs it. */
const PAGE =
  "SELECT run_id, thread_id, record FROM runs WHERE thread_id = ? AND seq < ? ORDER BY seq DESC LIMIT ?";

const plan = (raw: (sql: string, ...params: unknown[]) => unknown[], sql: string, ...params: unknown[]) =>
  (raw(`EXPLAIN QUERY PLAN ${sql}`, ...params) as { detail: string }[]).map((step) => step.detail).join("; ");

/** Records `count` ended runs on the thread, the last a resume of the first. */
async function history(store: StateStore, count: number): Promise<void> {
  for (let at = 1; at <= count; at++) {
    const resumeOf = at === count ? { resumeOf: asRunId("r1") } : {};
    await store.createRun(runRecord({ runId: asRunId(`r${at}`), ...resumeOf }));
    await store.finishRun(asRunId(`r${at}`), "succeeded", "2025-01-01T00:00:01.000Z");
  }
}

describe("sqlite: paging runs and finding a run's resume read indexes, not the thread's history", () => {
  it("resumedBy seeks runs_resume_of; a page seeks runs_thread below the cursor", async () => {
    const setup = storeFile();
    const store = setup.open();
    await history(store, 30);
    expect((await store.resumedBy?.(asRunId("r1")))?.runId).toBe("r30");
    expect(plan(setup.raw, RESUMED_BY, "r1")).toBe("SEARCH runs USING INDEX runs_resume_of (<expr>=?)");
    expect(plan(setup.raw, PAGE, THREAD, 10, 5)).toBe(
      "SEARCH runs USING INDEX runs_thread (thread_id=? AND seq<?)",
    );
    // only resumes are in the partial index
    expect(
      setup.raw(`SELECT count(*) AS n FROM runs INDEXED BY runs_resume_of WHERE ${RESUME_OF} IS NOT NULL`),
    ).toEqual([{ n: 1 }]);
  });

  it("a file written before the index gets it at the next writable open, resumes recorded before included; read-only works without it", async () => {
    const setup = storeFile();
    const store = setup.open();
    await history(store, 3);
    await store.close();
    // as a file written before stop 36 has it
    setup.raw("DROP INDEX runs_resume_of");
    const readonly = setup.open({ readonly: true });
    expect((await readonly.resumedBy?.(asRunId("r1")))?.runId).toBe("r3");
    await readonly.close();
    const index = () => setup.raw("SELECT name FROM sqlite_master WHERE name = 'runs_resume_of'");
    expect(index()).toEqual([]);
    const writable = setup.open();
    expect(index()).toEqual([{ name: "runs_resume_of" }]);
    expect((await writable.resumedBy?.(asRunId("r1")))?.runId).toBe("r3");
  });

  it("a run recorded by another program or build (a plain insert) is found; a damaged record is none and still opens", async () => {
    const setup = storeFile();
    const store = setup.open();
    await history(store, 2);
    setup.raw(
      "INSERT INTO runs (run_id, thread_id, status, record) VALUES (?, ?, ?, ?)",
      "r9",
      THREAD,
      "succeeded",
      JSON.stringify(runRecord({ runId: asRunId("r9"), resumeOf: asRunId("r2"), status: "succeeded" })),
    );
    expect((await store.resumedBy?.(asRunId("r2")))?.runId).toBe("r9");
    // a damaged row (not JSON) is written and indexed as no resume: the file still opens writable
    setup.raw("UPDATE runs SET record = 'not json' WHERE run_id = 'r9'");
    await store.close();
    const again = setup.open();
    expect(await again.resumedBy?.(asRunId("r2"))).toBeUndefined();
  });
});
