import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { isValidCallId } from "@obelisk/core";
import { afterAll, describe, expect, it } from "vitest";
import { commitOf, commitOk, manualClock, THREAD, write } from "./conformance/commit-fixtures.js";
import { createMemoryStore } from "./memory-store.js";
import { createSqliteStore } from "./sqlite-store.js";
import { getValue } from "./variables/get-value.js";
import { setValue } from "./variables/set-value.js";

const dir = mkdtempSync(join(tmpdir(), "obelisk-weak-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** One test per weakness of the earlier variables manager and tool-output manager (issue 4). */
describe("the earlier designs' weaknesses do not happen here", () => {
  it("automatic numbers never repeat, even after reset and keep-last-n, so `<tool>$<n>` ids are never reused", async () => {
    const store = createMemoryStore();
    const seen = new Set<number>();
    for (let round = 0; round < 3; round++) {
      seen.add(await store.reserveCallNumbers(THREAD, 1));
      await commitOk(store, { callId: `given${round}`, writes: [write(["x"], round)] });
      await (round % 2 === 0 ? store.reset(THREAD) : store.keepLastN(THREAD, 0));
    }
    expect(seen).toEqual(new Set([1, 2, 3]));
  });

  it("automatic ids cannot collide with given ones: a given id never contains `$`, every automatic id does", async () => {
    const store = createMemoryStore();
    await commitOk(store, { callId: "search", writes: [write(["given"], 1)] });
    const first = await setValue(store, THREAD, "†state.a", 1);
    await store.reset(THREAD);
    const second = await setValue(store, THREAD, "†state.a", 2);
    for (const automatic of [
      first.callId,
      second.callId,
      `search$${await store.reserveCallNumbers(THREAD, 1)}`,
    ]) {
      expect(automatic).toContain("$");
      expect(isValidCallId(automatic)).toBe(false);
    }
    expect(second.callId).not.toBe(first.callId);
    expect(isValidCallId("search")).toBe(true);
  });

  it("an update moves a variable to most recent, so keep-last-n keeps what was just written", async () => {
    const store = createMemoryStore();
    await commitOk(store, { callId: "a", writes: [write(["a"], 1)] });
    await commitOk(store, { callId: "b", writes: [write(["b"], 1)] });
    await commitOk(store, { callId: "a2", writes: [write(["a"], 2)] });
    await store.keepLastN(THREAD, 1);
    expect(await store.readState(THREAD)).toEqual({ a: 2 });
  });

  it("previews are bounded: a 5-key object of 100 KB strings does not make a 500 KB preview", async () => {
    const store = createMemoryStore();
    const big = "q".repeat(100_000);
    await commitOk(store, { callId: "a", output: { a: big, b: big, c: big, d: big, e: big } });
    const [meta] = await store.listVariables(THREAD);
    expect(meta!.preview.length).toBeLessThanOrEqual(240);
  });

  it("stored values are not shared by identity: a tool mutating its input cannot corrupt stored data", async () => {
    const store = createMemoryStore();
    const value = { list: [1] };
    await commitOk(store, { callId: "a", writes: [write(["v"], value)] });
    value.list.push(2);
    const read = (await store.readState(THREAD)) as { v: { list: number[] } };
    expect(() => read.v.list.push(3)).toThrow(TypeError);
    expect(await store.readState(THREAD)).toEqual({ v: { list: [1] } });
  });

  it("eviction never runs before the write that triggers it succeeds", async () => {
    const store = createMemoryStore();
    await commitOk(store, { callId: "old", output: "old" });
    const failed = await store.commitCall(
      commitOf({ callId: "new", output: "new", writes: [write(["s"], 1), write(["s", "x"], 1)] }),
    );
    expect(failed.ok).toBe(false);
    await store.applyRetention(THREAD, { maxCallOutputs: 1 }, new Date());
    expect(await store.getCallOutput(THREAD, "old")).toEqual({ value: "old" });
  });

  it("expiry runs on read, against the clock, not only on writes", async () => {
    const clock = manualClock();
    const store = createMemoryStore({ now: clock.now });
    await commitOk(store, { callId: "o", output: 1 });
    clock.advance(60 * 60 * 1000 + 1);
    await expect(getValue(store, THREAD, "†calls.o")).rejects.toMatchObject({
      code: "REF_EVICTED",
      data: { reason: "maxCallOutputAgeMs" },
    });
  });

  it("the metadata index is persisted: a restart keeps track of stored data", async () => {
    const file = join(dir, "meta.db");
    const first = createSqliteStore(file);
    await commitOk(first, {
      callId: "a",
      description: "kept",
      writes: [write(["a"], [1, 2])],
      output: { o: 1 },
    });
    const before = await first.listVariables(THREAD);
    await first.close();
    const second = createSqliteStore(file);
    expect(await second.listVariables(THREAD)).toEqual(before);
    expect(await second.listCallOutputIds(THREAD)).toEqual(["a"]);
    await second.close();
  });

  it("concurrent writers are serialised by a per-thread lock", async () => {
    const store = createMemoryStore();
    const lock = await store.lockThread(THREAD);
    await expect(store.lockThread(THREAD)).rejects.toMatchObject({ code: "THREAD_BUSY" });
    await lock.release();
  });
});
