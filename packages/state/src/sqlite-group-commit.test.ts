import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { commitOf, RUN, runRecord, THREAD, write } from "./conformance/commit-fixtures.js";
import { createSqliteStore } from "./sqlite-store.js";
import type { CallCommit, StateStore } from "./store-types.js";

const dir = mkdtempSync(join(tmpdir(), "obelisk-group-"));
let counter = 0;
const stores: StateStore[] = [];
afterAll(async () => {
  for (const store of stores) await store.close().catch(() => undefined);
  rmSync(dir, { recursive: true, force: true });
});

async function openFile(file = join(dir, `group-${++counter}.db`)) {
  const store = createSqliteStore(file);
  stores.push(store);
  await store.openThread(THREAD, { stateSchema: { type: "object", properties: { n: { type: "number" } } } });
  await store.createRun(runRecord({ plan: null, startedAt: "2025-01-01T00:00:00.000Z" }));
  const commitCalls = store.commitCalls?.bind(store);
  if (commitCalls === undefined) throw new Error("the SQLite store has no commitCalls");
  return { store, file, commitCalls };
}

describe("sqlite group commit (commitCalls)", () => {
  it("makes every commit of the group durable, in order, answering each as commitCall would", async () => {
    const { file, commitCalls } = await openFile();
    const results = await commitCalls([
      commitOf({ callId: "a", writes: [write(["a"], 1)] }),
      commitOf({ callId: "b", writes: [write(["list"], 1, "push")] }),
      commitOf({ callId: "c", writes: [write(["list"], 2, "push")] }),
    ]);
    expect(results).toEqual([{ ok: true }, { ok: true }, { ok: true }]);
    const reopened = createSqliteStore(file);
    stores.push(reopened);
    expect(await reopened.readState(THREAD)).toEqual({ a: 1, list: [1, 2] });
    const records = await reopened.listCallRecords(RUN);
    expect(records.map((record) => record.callId)).toEqual(["a", "b", "c"]);
  });

  it("refuses one commit of the group (state schema) and keeps the others", async () => {
    const { file, commitCalls } = await openFile();
    const results = await commitCalls([
      commitOf({ callId: "ok1", writes: [write(["x"], 1)] }),
      commitOf({ callId: "bad", writes: [write(["n"], "not a number")] }),
      commitOf({ callId: "ok2", writes: [write(["y"], 2)] }),
    ]);
    expect(results[0]).toEqual({ ok: true });
    expect(results[1]).toMatchObject({ ok: false, error: { code: "OUTPUT_SCHEMA_VIOLATION" } });
    expect(results[2]).toEqual({ ok: true });
    const reopened = createSqliteStore(file);
    stores.push(reopened);
    expect(await reopened.readState(THREAD)).toEqual({ x: 1, y: 2 });
  });

  it("keeps none of the group when storage fails inside it, and the store reads the file again", async () => {
    const { store, file, commitCalls } = await openFile();
    const unstorable = commitOf({ callId: "boom", writes: [write(["z"], 3)] });
    // JSON.stringify of the record throws inside the transaction: a storage failure mid-group.
    const broken: CallCommit = {
      ...unstorable,
      record: { ...unstorable.record, attempts: 10n as unknown as number },
    };
    expect(() => commitCalls([commitOf({ callId: "first", writes: [write(["w"], 1)] }), broken])).toThrow(
      expect.objectContaining({ code: "STORE_ERROR" }),
    );
    expect(await store.readState(THREAD)).toEqual({});
    const reopened = createSqliteStore(file);
    stores.push(reopened);
    expect(await reopened.readState(THREAD)).toEqual({});
    expect(await reopened.listCallRecords(RUN)).toEqual([]);
  });
});
