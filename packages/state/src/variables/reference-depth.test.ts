import { describe, expect, it } from "vitest";
import { commitOk, THREAD, write } from "../conformance/commit-fixtures.js";
import { createMemoryStore } from "../memory-store.js";
import type { StateStore } from "../store-types.js";
import { getValue } from "./get-value.js";
import { setValue } from "./set-value.js";
import { summarize } from "./summarize.js";
import { unsetValue } from "./unset-value.js";

/** `†state.x.x…` with `depth` segments, and its path. */
const deep = (depth: number) => ({
  reference: `†state${".x".repeat(depth)}`,
  path: Array.from({ length: depth }, () => "x"),
});

const codeOf = (promise: Promise<unknown>): Promise<unknown> =>
  promise.then(
    () => "resolved",
    (error: { code?: string }) => error.code,
  );

/** The thread as the store holds it (state, variables, log), to check a refusal changed nothing. */
async function snapshot(store: StateStore): Promise<string> {
  return JSON.stringify([
    await store.readState(THREAD),
    await store.listVariables(THREAD),
    await store.readWriteLog(THREAD),
  ]);
}

describe("maxPathDepth: references given to getValue, setValue, unsetValue and summarize", () => {
  it("a raised limit reads, writes, lists and removes a reference deeper than 32 segments", async () => {
    const store = createMemoryStore();
    const { reference } = deep(40);
    const limits = { maxPathDepth: 64 };
    await setValue(store, THREAD, reference, 1, limits);
    expect(await getValue(store, THREAD, reference, limits)).toEqual({ found: true, value: 1 });
    const listed = await summarize(store, THREAD, { refs: [reference], ...limits });
    expect(listed.entries.map((entry) => entry.reference)).toEqual([reference]);
    expect(listed.notFound).toEqual([]);
    expect(await unsetValue(store, THREAD, reference, limits)).toMatchObject({ removed: true });
    // removed: reading it answers REF_EVICTED (reason unset), found at its depth
    await expect(getValue(store, THREAD, reference, limits)).rejects.toMatchObject({
      code: "REF_EVICTED",
      data: { reason: "unset" },
    });
  });

  it("the default limit is 32: a deeper reference is PLAN_LIMIT and changes nothing", async () => {
    const store = createMemoryStore();
    await setValue(store, THREAD, deep(32).reference, 1);
    expect(await getValue(store, THREAD, deep(32).reference)).toEqual({ found: true, value: 1 });
    const before = await snapshot(store);
    const { reference } = deep(33);
    expect(await codeOf(getValue(store, THREAD, reference))).toBe("PLAN_LIMIT");
    expect(await codeOf(setValue(store, THREAD, reference, 2))).toBe("PLAN_LIMIT");
    expect(await codeOf(unsetValue(store, THREAD, reference))).toBe("PLAN_LIMIT");
    expect(await codeOf(summarize(store, THREAD, { refs: [reference] }))).toBe("PLAN_LIMIT");
    expect(await snapshot(store)).toBe(before);
  });

  it("a lowered limit refuses what the default allows, and changes nothing", async () => {
    const store = createMemoryStore();
    await setValue(store, THREAD, "†state.a.b.c", 1);
    const before = await snapshot(store);
    const limits = { maxPathDepth: 2 };
    expect(await codeOf(getValue(store, THREAD, "†state.a.b.c", limits))).toBe("PLAN_LIMIT");
    expect(await codeOf(setValue(store, THREAD, "†state.a.b.c", 2, limits))).toBe("PLAN_LIMIT");
    expect(await codeOf(unsetValue(store, THREAD, "†state.a.b.c", limits))).toBe("PLAN_LIMIT");
    expect(await codeOf(summarize(store, THREAD, { refs: ["†state.a.b.c"], ...limits }))).toBe("PLAN_LIMIT");
    expect(await snapshot(store)).toBe(before);
    // within it, as before
    expect(await getValue(store, THREAD, "†state.a.b", limits)).toEqual({ found: true, value: { c: 1 } });
  });

  it("refuses a maxPathDepth that is no whole number of at least 1 with USAGE", async () => {
    const store = createMemoryStore();
    for (const maxPathDepth of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, "3" as never]) {
      expect(await codeOf(getValue(store, THREAD, "†state.a", { maxPathDepth }))).toBe("USAGE");
      expect(await codeOf(setValue(store, THREAD, "†state.a", 1, { maxPathDepth }))).toBe("USAGE");
      expect(await codeOf(unsetValue(store, THREAD, "†state.a", { maxPathDepth }))).toBe("USAGE");
      expect(await codeOf(summarize(store, THREAD, { maxPathDepth }))).toBe("USAGE");
    }
    expect(await store.getThread(THREAD)).toBeUndefined();
  });

  it("variables written deeper than the caller's limit are still listed under a shallow reference", async () => {
    const store = createMemoryStore();
    const { reference } = deep(40);
    await setValue(store, THREAD, reference, 1, { maxPathDepth: 40 });
    const all = await summarize(store, THREAD);
    expect(all.entries.map((entry) => entry.reference)).toEqual([reference]);
    const below = await summarize(store, THREAD, { refs: ["†state.x"] });
    expect(below.entries.map((entry) => entry.reference)).toEqual([reference]);
    expect(below.notFound).toEqual([]);
  });

  it("†calls.<id> of a call whose _outputPath went deeper than 32 names that path", async () => {
    const store = createMemoryStore();
    const { reference, path } = deep(40);
    await commitOk(store, { callId: "deep", writes: [{ ...write(path, 1), reference }] });
    await expect(getValue(store, THREAD, "†calls.deep")).rejects.toMatchObject({
      code: "REF_UNRESOLVED",
      data: { callId: "deep", wrote: [reference] },
    });
  });
});
