import {
  asCallId,
  deepFreeze,
  type JsonObject,
  type JsonValue,
  jsonByteSize,
  toJsonValue,
} from "@obelisk/core";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { sqliteTempFiles } from "./__fixtures__/sqlite-store-files.js";
import { commitOf, commitOk, THREAD, write } from "./conformance/commit-fixtures.js";

const { freshFile, open, closeAll } = sqliteTempFiles("obelisk-loaded-copies-");
afterAll(closeAll);
afterEach(() => vi.restoreAllMocks());

/** A table of `count` rows: 2 × count + 1 containers, far past what a record checks node by node. */
const table = (count: number): JsonValue =>
  Array.from({ length: count }, (_, id) => ({ id, name: `customer-${id}`, tags: ["a", "b"] }));

/** A store file holding a table at `†state.rows` and a nested value, reopened: the state as loaded. */
async function loadedState(): Promise<{ file: string; state: JsonObject }> {
  const file = freshFile();
  const writer = open(file);
  await commitOk(writer, { callId: "fetch", writes: [write(["rows"], table(5000))] });
  await commitOk(writer, { callId: "deep", writes: [write(["deep"], { a: { b: [[1], { c: "é" }] } })] });
  await writer.close();
  return { file, state: await open(file).readState(THREAD) };
}

describe("sqlite: a loaded thread's values are remembered frozen copies (review s42 q2 #2)", () => {
  it("copying a loaded variable's value returns it as it is, with its size and height", async () => {
    const { state } = await loadedState();
    for (const key of ["rows", "deep"]) {
      const value = state[key] as JsonValue;
      const copy = toJsonValue(value);
      expect(copy).toMatchObject({ ok: true, bytes: jsonByteSize(value) });
      if (!copy.ok) return;
      expect(copy.value).toBe(value);
      expect(copy.height).toBe(key === "rows" ? 3 : 4);
      // inside another value too (a call's parameters): the member is kept, the sizes add up
      const params = toJsonValue({ x: value, i: 1 });
      expect(params).toMatchObject({ ok: true, bytes: jsonByteSize({ x: value, i: 1 }) });
      if (params.ok) expect((params.value as JsonObject).x).toBe(value);
    }
  });

  it("so is a stored call output read from the file", async () => {
    const file = freshFile();
    const writer = open(file);
    const rows = table(5000);
    await commitOk(writer, { callId: "fetch", output: rows });
    await writer.close();
    const found = await open(file).getCallOutput(THREAD, asCallId("fetch"));
    const output = found !== undefined && "value" in found ? found.value : undefined;
    expect(output).toEqual(rows);
    const copy = toJsonValue(output as JsonValue);
    expect(copy).toMatchObject({ ok: true, bytes: jsonByteSize(rows), height: 3 });
    if (copy.ok) expect(copy.value).toBe(output);
  });

  it("a record of a call reading a loaded table does not copy it (freezes counted)", async () => {
    const { file, state } = await loadedState();
    const store = open(file);
    const rows = (await store.readState(THREAD)).rows as JsonValue;
    expect(rows).toEqual(state.rows);
    const freeze = vi.spyOn(Object, "freeze");
    for (const callId of ["r1", "r2", "r3"]) {
      const commit = commitOf({ callId, writes: [write([callId], 1)] });
      const record = { ...commit.record, params: { x: rows, i: 1 } };
      const result = await store.commitCall({ ...commit, record });
      expect(result.ok).toBe(true);
    }
    // 10,001 containers: each record copying the table (and trimming the copy) froze 20,000 and more
    expect(freeze.mock.calls.length).toBeLessThan(12_000);
    freeze.mockClear();
    const commit = commitOf({ callId: "r4", writes: [write(["r4"], 1)] });
    const record = { ...commit.record, params: { x: rows, i: 1 } };
    expect((await store.commitCall({ ...commit, record })).ok).toBe(true);
    // a later reader's record: the table's trimmed form is known (by identity), nothing of it is walked
    expect(freeze.mock.calls.length).toBeLessThan(50);
    const stored = (await store.listCallRecords(commit.record.runId)).find((one) => one.callId === "r4");
    expect(stored?.params).toEqual({ x: null, i: 1 });
  });
});

/** True when every container of a value is frozen. */
function allFrozen(value: unknown): boolean {
  if (typeof value !== "object" || value === null) return true;
  return Object.isFrozen(value) && Object.values(value).every(allFrozen);
}

describe("sqlite: a record read back (runs.show) is frozen by a walk made for parsed JSON (review s42 q2 #7)", () => {
  it("reads no property descriptor, and a later deepFreeze of its result returns at once", async () => {
    const file = freshFile();
    const writer = open(file);
    const rows = table(2000);
    await commitOk(writer, { callId: "fetch", output: rows });
    await writer.close();
    const reader = open(file);
    const descriptors = vi.spyOn(Object, "getOwnPropertyDescriptor");
    const [record] = await reader.listCallRecords(commitOf({ callId: "fetch" }).record.runId);
    // core's deepFreeze read one descriptor per property: 10,000 and more for this record
    expect(descriptors.mock.calls.length).toBeLessThan(10);
    expect(record?.result).toEqual(rows);
    expect(allFrozen(record)).toBe(true);
    deepFreeze(record?.result);
    expect(descriptors.mock.calls.length).toBeLessThan(10);
  });
});
