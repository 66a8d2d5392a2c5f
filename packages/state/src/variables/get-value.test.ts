import { describe, expect, it } from "vitest";
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
