import { describe, expect, it, vi } from "vitest";
import { commitOk, foldedLog, THREAD, write } from "./conformance/commit-fixtures.js";
import { createMemoryStore } from "./memory-store.js";
import { unsetValue } from "./variables/unset-value.js";

// counts the memory store's compactions of a thread's log (it also reads the log through compactLog to
// prune, which these tests do not do)
const compactions = vi.hoisted(() => ({ count: 0 }));
vi.mock("./internal/memory-log.js", async (importOriginal) => {
  const original = await importOriginal<typeof import("./internal/memory-log.js")>();
  return {
    ...original,
    compactLog: (log: Parameters<typeof original.compactLog>[0]) => {
      compactions.count++;
      return original.compactLog(log);
    },
  };
});

/** A 1,000-character value: 1,002 bytes of JSON, so 262 writes pass the 256 KiB compaction point. */
const BIG = "x".repeat(1000);

describe("memory store: a log of new top-level keys is not compacted (stop 29)", () => {
  it("skips the compaction of a log every entry of which writes a key no other touches, until one does", {
    timeout: 60_000,
  }, async () => {
    compactions.count = 0;
    const store = createMemoryStore();
    // 600 new keys, 601 KB written: past the compaction point, over two of the log's chunks (512 entries)
    for (let index = 0; index < 600; index++)
      await commitOk(store, { callId: `c${index}`, writes: [write([`n${index}`], BIG)] });
    expect(compactions.count).toBe(0);
    const log = await store.readWriteLog(THREAD);
    expect(log.map((entry) => entry.seq)).toEqual(Array.from({ length: 600 }, (_, index) => index + 1));
    expect(log[599]?.write.path).toEqual(["n599"]);
    // a key written again: the log now holds something to compact, and is compacted once the state's size
    // (~525 KB, the point the last skipped compaction set) is written again
    const LARGER = BIG.repeat(10);
    for (let index = 0; index < 70; index++)
      await commitOk(store, { callId: `again${index}`, writes: [write(["n0"], `${index}${LARGER}`)] });
    expect(compactions.count).toBe(1);
    const compacted = await store.readWriteLog(THREAD);
    expect(compacted.length).toBeLessThan(670);
    expect(await foldedLog(store)).toEqual(await store.readState(THREAD));
  });

  it("compacts again once a removal is logged, though every write was of a new key", async () => {
    compactions.count = 0;
    const store = createMemoryStore();
    await commitOk(store, { callId: "first", writes: [write(["gone"], BIG)] });
    await unsetValue(store, THREAD, "†state.gone");
    for (let index = 0; index < 300; index++)
      await commitOk(store, { callId: `c${index}`, writes: [write([`n${index}`], BIG)] });
    expect(compactions.count).toBe(1);
    // the write of `gone` and its removal went
    const log = await store.readWriteLog(THREAD);
    expect(log.some((entry) => entry.write.path[0] === "gone")).toBe(false);
    expect(await foldedLog(store)).toEqual(await store.readState(THREAD));
  });
});
