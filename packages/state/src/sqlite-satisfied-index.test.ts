import { afterAll, describe, expect, it } from "vitest";
import { sqliteStoreFiles } from "./__fixtures__/sqlite-store-files.js";
import { commitOk, THREAD } from "./conformance/commit-fixtures.js";

const { storeFile, closeAll } = sqliteStoreFiles("obelisk-satisfied-");
afterAll(closeAll);

const KEY = "sha256:the-key";
/** The store's satisfied lookup, as `findCompletedCall` runs it. */
const LOOKUP =
  "SELECT record FROM call_records WHERE thread_id = ? AND call_hash = ? AND status = 'succeeded' ORDER BY id DESC LIMIT 1";

/** The names of the file's indexes on call records' keys. */
const keyIndexes = (raw: (sql: string) => unknown[]) =>
  raw("SELECT name FROM sqlite_master WHERE name IN ('call_records_key', 'call_records_hash') ORDER BY name");

describe("sqlite: the satisfied lookup seeks the succeeded records of its key", () => {
  it("finds the succeeded record behind many satisfied ones of the same key, through call_records_key", async () => {
    // an agent loop re-sending one call each tick: one succeeded record, then a satisfied one per tick
    const setup = storeFile();
    const store = setup.open();
    await commitOk(store, { callId: "t1", callHash: KEY });
    for (let tick = 2; tick <= 50; tick++)
      await commitOk(store, { callId: `t${tick}`, callHash: KEY, status: "satisfied" });
    expect((await store.findCompletedCall(THREAD, KEY))?.callId).toBe("t1");
    const plan = setup.raw(`EXPLAIN QUERY PLAN ${LOOKUP}`, THREAD, KEY) as { detail: string }[];
    // the status is part of the seek: without it the lookup read the 49 satisfied records before t1's
    expect(plan.map((step) => step.detail).join("; ")).toContain(
      "USING INDEX call_records_key (thread_id=? AND call_hash=? AND status=?)",
    );
  });

  it("a file with the retired call_records_hash gets call_records_key instead at the next writable open; read-only works as it is", async () => {
    const setup = storeFile();
    const store = setup.open();
    await commitOk(store, { callId: "a", callHash: KEY });
    await store.close();
    // as a file written before stop 27 has it
    setup.raw("DROP INDEX call_records_key");
    setup.raw(
      "CREATE INDEX call_records_hash ON call_records (thread_id, call_hash, id) WHERE call_hash IS NOT NULL",
    );
    const readonly = setup.open({ readonly: true });
    expect((await readonly.findCompletedCall(THREAD, KEY))?.callId).toBe("a");
    expect(keyIndexes(setup.raw)).toEqual([{ name: "call_records_hash" }]);
    const writable = setup.open();
    expect(keyIndexes(setup.raw)).toEqual([{ name: "call_records_key" }]);
    expect((await writable.findCompletedCall(THREAD, KEY))?.callId).toBe("a");
  });
});
