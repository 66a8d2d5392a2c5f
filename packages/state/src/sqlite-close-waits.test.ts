import { ObeliskError } from "@obelisk/core";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { sqliteStoreFiles } from "./__fixtures__/sqlite-store-files.js";
import { THREAD } from "./conformance/commit-fixtures.js";
import { wrap } from "./internal/sqlite-errors.js";

const { storeFile, closeAll } = sqliteStoreFiles("obelisk-close-waits-");
afterAll(closeAll);

describe("sqlite: close() while a lock is waited for (s33 review: 'not open' was STORE_ERROR without a hint)", () => {
  it("a wait for another connection's lock row ends STORE_CLOSED with a hint; the row stays the holder's", async () => {
    const { open, raw } = storeFile();
    const holder = open();
    const held = await holder.lockThread(THREAD);
    const store = open({ lock: { pollMs: 5 } });
    const waiting = store.lockThread(THREAD, { waitMs: 60_000 });
    const outcome = expect(waiting).rejects.toMatchObject({
      code: "STORE_CLOSED",
      message: `the sqlite store was closed while this waited for the lock of thread "${THREAD}": nothing was changed`,
      hint: expect.stringContaining("create a new store"),
      data: { threadId: THREAD },
    });
    await store.close();
    await outcome;
    expect(raw("SELECT count(*) AS n FROM locks")).toEqual([{ n: 1 }]);
    await held.release();
  });

  it("a statement on the closed connection is STORE_CLOSED with a hint, not STORE_ERROR", () => {
    const db = new Database(":memory:");
    db.close();
    let failure: unknown;
    try {
      db.prepare("SELECT 1");
    } catch (error) {
      failure = wrap("read", error, ":memory:");
    }
    expect(ObeliskError.is(failure) && [failure.code, failure.message, failure.hint]).toEqual([
      "STORE_CLOSED",
      "the sqlite store is closed",
      expect.stringContaining("create a new store"),
    ]);
  });
});
