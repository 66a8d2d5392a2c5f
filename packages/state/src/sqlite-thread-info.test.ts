import { ObeliskError } from "@obelisk/core";
import { afterAll, describe, expect, it } from "vitest";
import { sqliteStoreFiles } from "./__fixtures__/sqlite-store-files.js";
import { commitOk, THREAD, write } from "./conformance/commit-fixtures.js";

const { storeFile, closeAll } = sqliteStoreFiles("obelisk-thread-info-");
afterAll(closeAll);

describe("sqlite: a thread's information and statistics read its row, not its state (s34)", () => {
  // `threads.list` asks every thread's statistics, which asked whether the store holds the thread by loading
  // its model: 200 threads of 1 MB state each took 5 s of CPU. A write-log entry that does not parse shows
  // whether the state was read: only a read of the state meets it.
  it("getThread, stats and listThreads answer for a thread whose state cannot be read; reading the state names the damage", async () => {
    const { open, raw } = storeFile();
    const writer = open();
    await commitOk(writer, { callId: "a", writes: [write(["a"], "x".repeat(1_000))] });
    const info = await writer.getThread(THREAD);
    await writer.close();
    raw("DELETE FROM snapshots");
    raw("UPDATE write_log SET entry = '{bad'");
    const store = open();
    expect(await store.getThread(THREAD)).toEqual(info);
    expect(await store.stats(THREAD)).toMatchObject({ threads: 1, variables: 1 });
    expect(await store.listThreads?.()).toEqual([info]);
    let failure: unknown;
    try {
      await store.readState(THREAD);
    } catch (error) {
      failure = error;
    }
    expect(ObeliskError.is(failure) && failure.data).toMatchObject({
      reason: "corrupt",
      table: "write_log",
      threadId: THREAD,
    });
  });
});
