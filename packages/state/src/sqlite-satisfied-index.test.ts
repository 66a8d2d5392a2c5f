import { afterAll, describe, expect, it } from "vitest";
import { sqliteStoreFiles } from "./__fixtures__/sqlite-store-files.js";
import { commitOk, THREAD } from "./conformance/commit-fixtures.js";

const { storeFile, closeAll } = sqliteStoreFiles("obelisk-satisfied-");
afterAll(closeAll);

const KEY = "sha256:the-key";
/** The store's satisfied lookup, as `findCompletedCall` runs it. */
const LOOKUP =
  "SELECT record FROM call_records WHERE thread_id = ? AND call_hash = ? AND status = 'succeeded' ORDER BY id DESC LIMIT 1";

describe("sqlite: the satisfied lookup reads only succeeded records of its key", () => {
  it("finds the succeeded record behind many satisfied ones of the same key, through call_records_succeeded", async () => {
    // an agent loop re-sending one call each tick: one succeeded record, then a satisfied one per tick
    const setup = storeFile();
    const store = setup.open();
    await commitOk(store, { callId: "t1", callHash: KEY });
    for (let tick = 2; tick <= 50; tick++)
      await commitOk(store, { callId: `t${tick}`, callHash: KEY, status: "satisfied" });
    expect((await store.findCompletedCall(THREAD, KEY))?.callId).toBe("t1");
    const plan = setup.raw(`EXPLAIN QUERY PLAN ${LOOKUP}`, THREAD, KEY) as { detail: string }[];
    // through call_records_hash the lookup read the 49 satisfied records, newest first, before t1's
    expect(plan.map((step) => step.detail).join("; ")).toContain("USING INDEX call_records_succeeded");
  });

  it("a file written without call_records_succeeded gets it at the next writable open; read-only works without", async () => {
    const setup = storeFile();
    const store = setup.open();
    await commitOk(store, { callId: "a", callHash: KEY });
    await store.close();
    setup.raw("DROP INDEX call_records_succeeded");
    const index = () => setup.raw("SELECT name FROM sqlite_master WHERE name = 'call_records_succeeded'");
    const readonly = setup.open({ readonly: true });
    expect((await readonly.findCompletedCall(THREAD, KEY))?.callId).toBe("a");
    expect(index()).toEqual([]);
    const writable = setup.open();
    expect(index()).toEqual([{ name: "call_records_succeeded" }]);
    expect((await writable.findCompletedCall(THREAD, KEY))?.callId).toBe("a");
  });
});
