import { describe, expect, it, vi } from "vitest";
import { commitOk, THREAD, write } from "../conformance/commit-fixtures.js";
import { createMemoryStore } from "../memory-store.js";
import { getValue } from "./get-value.js";

async function storeWithValues() {
  const store = createMemoryStore();
  await commitOk(store, {
    callId: "a",
    writes: [
      write(["obj"], { a: 1, b: 2, c: 3 }),
      write(["n"], 5),
      write(["none"], null),
      write(["list"], [1, 2]),
    ],
  });
  return store;
}

describe("getValue: paging arguments are never silently ignored (review 7 H2, L3)", () => {
  it("refuses offset/limit on a number or null with USAGE instead of answering the whole value", async () => {
    const store = await storeWithValues();
    for (const [reference, what] of [
      ["†state.n", "a number"],
      ["†state.none", "null"],
    ] as const) {
      for (const options of [{ limit: 1 }, { offset: 0 }, { offset: 1, limit: 2 }]) {
        await expect(getValue(store, THREAD, reference, options)).rejects.toMatchObject({
          code: "USAGE",
          message: `${reference} is ${what}: offset and limit page arrays (items), objects (keys) and strings (characters) only`,
          hint: "read it without offset and limit",
        });
      }
    }
    // without paging arguments the library API answers whole values, and pages arrays as before
    expect(await getValue(store, THREAD, "†state.obj")).toEqual({ found: true, value: { a: 1, b: 2, c: 3 } });
    expect(await getValue(store, THREAD, "†state.list", { limit: 1 })).toMatchObject({
      items: [1],
      total: 2,
    });
  });

  it("says what a refused offset or limit was: a string is not shown as a number", async () => {
    const store = await storeWithValues();
    const cases = [
      [{ offset: "1" }, 'offset must be a non-negative integer, got the string "1"'],
      [{ limit: -1 }, "limit must be a non-negative integer, got -1"],
      [{ limit: null }, "limit must be a non-negative integer, got null"],
      [{ offset: [1] }, "offset must be a non-negative integer, got an array"],
    ] as const;
    for (const [options, message] of cases)
      await expect(getValue(store, THREAD, "†state.list", options as never)).rejects.toMatchObject({
        code: "USAGE",
        message,
      });
  });
});

describe("getValue of †calls.<id> for a call that has an _outputPath (review 7 M7, SPEC §3)", () => {
  it("is REF_UNRESOLVED with a hint naming the path the call wrote; an unknown call stays not found", async () => {
    const store = createMemoryStore();
    await commitOk(store, { callId: "w1", tool: "emit", writes: [write(["w"], { x: 1 })] });
    await commitOk(store, { callId: "c1", tool: "emit", output: { kept: true } });
    await expect(getValue(store, THREAD, "†calls.w1")).rejects.toMatchObject({
      code: "REF_UNRESOLVED",
      message: expect.stringContaining("†state.w"),
      hint: "read †state.w instead",
      data: { reference: "†calls.w1", callId: "w1", wrote: ["†state.w"] },
    });
    await expect(getValue(store, THREAD, "†calls.w1.x")).rejects.toMatchObject({
      code: "REF_UNRESOLVED",
      hint: "read †state.w.x instead",
    });
    expect(await getValue(store, THREAD, "†calls.zzz")).toEqual({ found: false });
    expect(await getValue(store, THREAD, "†calls.c1")).toEqual({ found: true, value: { kept: true } });
    expect(await getValue(store, THREAD, "†calls.c1.missing")).toEqual({ found: false });
  });
});

describe("getValue pages an object by keys, as the get_variable agent tool does", () => {
  it("answers the keys from offset in stored order, with how many there are", async () => {
    const store = await storeWithValues();
    expect(await getValue(store, THREAD, "†state.obj", { offset: 1, limit: 1 })).toEqual({
      found: true,
      entries: { b: 2 },
      offset: 1,
      limit: 1,
      total: 3,
    });
    expect(await getValue(store, THREAD, "†state.obj", { offset: 1 })).toEqual({
      found: true,
      entries: { b: 2, c: 3 },
      offset: 1,
      limit: 2,
      total: 3,
    });
    // past the end: an empty page, as for an array
    expect(await getValue(store, THREAD, "†state.obj", { offset: 9 })).toMatchObject({
      entries: {},
      offset: 3,
      limit: 0,
      total: 3,
    });
  });
});

describe("getValue pages a large object from one key list (stop 27: each page listed all its keys)", () => {
  const KEYS = 3_000;
  const large = (prefix: string): Record<string, number> =>
    Object.fromEntries(Array.from({ length: KEYS }, (_, index) => [`${prefix}${index}`, index]));

  it("lists the object's keys once for all its pages, and the pages are those of Object.keys", async () => {
    const store = createMemoryStore();
    const value = large("k");
    await commitOk(store, { callId: "a", writes: [write(["big"], value)] });
    const stored = (await getValue(store, THREAD, "†state.big")).value as object;
    const listed = vi.spyOn(Object, "keys");
    try {
      const keys = Object.keys(value);
      listed.mockClear();
      for (let offset = 0; offset < KEYS + 500; offset += 500) {
        const page = await getValue(store, THREAD, "†state.big", { offset, limit: 500 });
        const expected = Object.fromEntries(keys.slice(offset, offset + 500).map((key) => [key, value[key]]));
        expect(page).toEqual({
          found: true,
          entries: expected,
          offset: Math.min(offset, KEYS),
          limit: Math.max(0, Math.min(500, KEYS - offset)),
          total: KEYS,
        });
      }
      expect(listed.mock.calls.filter(([object]) => object === stored)).toHaveLength(1);
    } finally {
      listed.mockRestore();
    }
  });

  it("a value changed between two pages: the next page is the new value's", async () => {
    const store = createMemoryStore();
    await commitOk(store, { callId: "a", writes: [write(["big"], large("k"))] });
    expect(await getValue(store, THREAD, "†state.big", { offset: 0, limit: 1 })).toMatchObject({
      entries: { k0: 0 },
      total: KEYS,
    });
    await commitOk(store, { callId: "b", writes: [write(["big", "added"], true, "set")] });
    expect(await getValue(store, THREAD, "†state.big", { offset: KEYS, limit: 5 })).toMatchObject({
      entries: { added: true },
      total: KEYS + 1,
    });
    await commitOk(store, { callId: "c", writes: [write(["big"], large("j"))] });
    expect(await getValue(store, THREAD, "†state.big", { offset: 1, limit: 1 })).toMatchObject({
      entries: { j1: 1 },
      total: KEYS,
    });
  });
});

describe("getValue pages a long string from one index (stop 28: each page counted the string from its start)", () => {
  /** Counts the code units read through String.prototype.charCodeAt until restored. */
  function countReads(): { reads: () => number; restore: () => void } {
    const original = String.prototype.charCodeAt;
    let reads = 0;
    String.prototype.charCodeAt = function (this: string, index: number): number {
      reads++;
      return original.call(this, index);
    };
    const restore = (): void => {
      String.prototype.charCodeAt = original;
    };
    return { reads: () => reads, restore };
  }

  it("reads a page's own characters, not the string's, once its first page is cut", async () => {
    const value = "é✓x😀".repeat(50_000); // 200,000 characters, 250,000 code units
    const store = createMemoryStore();
    await commitOk(store, { callId: "a", writes: [write(["s"], value)] });
    const characters = Array.from(value);
    const counter = countReads();
    const later: number[] = [];
    try {
      await getValue(store, THREAD, "†state.s", { offset: 0, limit: 100 });
      for (let offset = 10_007; offset < 200_000; offset += 10_007) {
        const before = counter.reads();
        const page = await getValue(store, THREAD, "†state.s", { offset, limit: 100 });
        later.push(counter.reads() - before);
        expect(page).toEqual({
          found: true,
          text: characters.slice(offset, offset + 100).join(""),
          offset,
          limit: 100,
          total: 200_000,
        });
      }
    } finally {
      counter.restore();
    }
    // a page walks at most 1,023 characters from a checkpoint to its start and to its end (two reads each)
    expect(Math.max(...later)).toBeLessThan(5_000);
  });

  it("a string changed between two pages (same length): the next page is the new string's", async () => {
    const store = createMemoryStore();
    await commitOk(store, { callId: "a", writes: [write(["s"], "😀a".repeat(20_000))] });
    expect(await getValue(store, THREAD, "†state.s", { offset: 39_998, limit: 5 })).toMatchObject({
      text: "😀a",
      total: 40_000,
    });
    await commitOk(store, { callId: "b", writes: [write(["s"], "a😀".repeat(20_000))] });
    expect(await getValue(store, THREAD, "†state.s", { offset: 39_998, limit: 5 })).toMatchObject({
      text: "a😀",
      total: 40_000,
    });
    await commitOk(store, { callId: "c", writes: [write(["s"], "ab".repeat(30_000))] });
    expect(await getValue(store, THREAD, "†state.s", { offset: 39_998, limit: 5 })).toMatchObject({
      text: "ababa",
      total: 60_000,
    });
  });
});
