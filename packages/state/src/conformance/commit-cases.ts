import { formatReference, type JsonValue, type OutputMethod } from "@obelisk/core";
import { describe, expect, it } from "vitest";
import { commitOf, commitOk, manualClock, RUN, THREAD, write } from "./commit-fixtures.js";
import type { OpenStore } from "./describe-store-conformance.js";

/** Commit, fold, atomicity, schema and immutability cases. */
export function commitCases(openStore: OpenStore): void {
  describe("commits", () => {
    it("reads an empty, frozen state for a new thread", async () => {
      const store = await openStore();
      const state = await store.readState(THREAD);
      expect(state).toEqual({});
      expect(Object.isFrozen(state)).toBe(true);
    });

    it("round-trips a committed write and creates intermediate objects", async () => {
      const store = await openStore();
      await commitOk(store, { callId: "a", writes: [write(["user", "profile", "name"], "Ada")] });
      expect(await store.readState(THREAD)).toEqual({ user: { profile: { name: "Ada" } } });
    });

    it("folds all five output methods", async () => {
      const store = await openStore();
      await commitOk(store, { callId: "s", writes: [write(["obj"], { a: { x: 1 }, b: 1 })] });
      await commitOk(store, { callId: "m", writes: [write(["obj"], { a: { y: 2 } }, "merge")] });
      await commitOk(store, { callId: "as", writes: [write(["obj"], { b: 2, c: 3 }, "assign")] });
      await commitOk(store, { callId: "p1", writes: [write(["list"], 1, "push")] });
      await commitOk(store, { callId: "p2", writes: [write(["list"], [2], "push")] });
      await commitOk(store, { callId: "c", writes: [write(["list"], [3, 4], "concat")] });
      expect(await store.readState(THREAD)).toEqual({
        obj: { a: { x: 1, y: 2 }, b: 2, c: 3 },
        list: [1, [2], 3, 4],
      });
    });

    it("logs every write in order with call, method, run and path", async () => {
      const store = await openStore();
      await commitOk(store, {
        callId: "one",
        tool: "t1",
        writes: [write(["a"], 1), write(["b"], 2, "push")],
      });
      await commitOk(store, { callId: "two", tool: "t2", writes: [write(["a"], 3)] });
      const log = await store.readWriteLog(THREAD);
      expect(log.map((e) => [e.call.id, e.call.tool, e.write.reference, e.write.method, e.runId])).toEqual([
        ["one", "t1", "†state.a", "set", "run-1"],
        ["one", "t1", "†state.b", "push", "run-1"],
        ["two", "t2", "†state.a", "set", "run-1"],
      ]);
      const seqs = log.map((e) => e.seq);
      expect([...seqs].sort((x, y) => x - y)).toEqual(seqs);
      expect(new Set(seqs).size).toBe(3);
    });

    it("logs complete entries, and rewriting a variable logs its canonical path and reference", async () => {
      const clock = manualClock();
      const store = await openStore({ now: clock.now });
      await commitOk(store, { callId: "one", tool: "t1", writes: [write(["a", 0], 1), write(["b"], 2)] });
      clock.advance(1500);
      // a caller's own path array (mutated afterwards) and a non-canonical reference text
      const path: (string | number)[] = ["a", 0];
      const second = commitOf({ callId: "two", tool: "t2", writes: [write(["x"], 3)] });
      const result = await store.commitCall({
        ...second,
        writes: [{ path, method: "set", value: 3, reference: "†state.a.0" }],
      });
      expect(result).toEqual({ ok: true });
      path[1] = 7;
      const call = (id: string, tool: string) => ({ id, tool });
      const entry = (
        seq: number,
        id: string,
        tool: string,
        date: string,
        p: (string | number)[],
        value: number,
      ) => ({
        seq,
        runId: RUN,
        call: call(id, tool),
        date,
        write: { path: p, method: "set", value, reference: formatReference("state", p) },
      });
      const log = await store.readWriteLog(THREAD);
      const first = log[0]!.seq;
      expect(log).toEqual([
        entry(first, "one", "t1", "2025-01-01T00:00:00.000Z", ["a", 0], 1),
        entry(first + 1, "one", "t1", "2025-01-01T00:00:00.000Z", ["b"], 2),
        entry(first + 2, "two", "t2", "2025-01-01T00:00:01.500Z", ["a", 0], 3),
      ]);
      expect(await store.readState(THREAD)).toEqual({ a: [3], b: 2 });
      const variables = await store.listVariables(THREAD);
      expect(variables.map((v) => [v.reference, v.version])).toEqual([
        ["†state.a[0]", 2],
        ["†state.b", 1],
      ]);
    });

    it("leaves nothing behind when the second write of a commit fails", async () => {
      const store = await openStore();
      await commitOk(store, { callId: "seed", writes: [write(["obj"], { k: 1 })] });
      const before = await store.readWriteLog(THREAD);
      const result = await store.commitCall(
        commitOf({ callId: "bad", writes: [write(["fresh"], 1), write(["obj"], 2, "push")] }),
      );
      expect(result).toMatchObject({
        ok: false,
        error: { code: "OUTPUT_WRITE_FAILED", reference: "†state.obj" },
      });
      expect(await store.readState(THREAD)).toEqual({ obj: { k: 1 } });
      expect(await store.readWriteLog(THREAD)).toEqual(before);
      expect(await store.listCallRecords(commitOf({ callId: "x" }).record.runId)).toHaveLength(1);
      expect((await store.listVariables(THREAD)).map((v) => v.reference)).toEqual(["†state.obj"]);
    });

    it("refuses forbidden segments and non-JSON values without writing", async () => {
      const store = await openStore();
      const proto = await store.commitCall(commitOf({ callId: "p", writes: [write(["__proto__", "x"], 1)] }));
      expect(proto).toMatchObject({ ok: false, error: { code: "OUTPUT_WRITE_FAILED" } });
      const fn = await store.commitCall(
        commitOf({ callId: "f", writes: [write(["f"], (() => 1) as never)] }),
      );
      expect(fn).toMatchObject({ ok: false, error: { code: "OUTPUT_WRITE_FAILED" } });
      expect(await store.readState(THREAD)).toEqual({});
      expect(({} as Record<string, unknown>).x).toBeUndefined();
    });

    it("holds the values a commit writes or stores to its maxValueBytes, and its record to at least the default", async () => {
      const store = await openStore();
      const long = "x".repeat(300);
      const limited = (spec: Parameters<typeof commitOf>[0]) => ({ ...commitOf(spec), maxValueBytes: 200 });
      const big = await store.commitCall(limited({ callId: "w", writes: [write(["big"], long)] }));
      expect(big).toMatchObject({
        ok: false,
        error: { code: "OUTPUT_WRITE_FAILED", reference: "†state.big" },
      });
      const output = await store.commitCall(limited({ callId: "o", output: long }));
      expect(output).toMatchObject({ ok: false, error: { code: "OUTPUT_WRITE_FAILED" } });
      expect(await store.readState(THREAD)).toEqual({});
      // the record itself is held to the default at least: a small limit never loses a call's record
      const params = limited({ callId: "p", writes: [write(["small"], 1)] });
      const withParams = {
        ...params,
        record: { ...params.record, params: { text: long }, error: { name: "Error", message: long } },
      };
      expect(await store.commitCall(withParams)).toEqual({ ok: true });
      const stored = (await store.listCallRecords(RUN)).find((record) => record.callId === "p");
      expect(stored).toMatchObject({ params: { text: long }, error: { name: "Error", message: long } });
      // the same values fit the default limit
      await commitOk(store, { callId: "w2", writes: [write(["big"], long)] });
      expect(await store.readState(THREAD)).toEqual({ small: 1, big: long });
    });

    it("refuses a write that grows a stored value past maxValueBytes (OUTPUT_TOO_LARGE), changing nothing", async () => {
      const store = await openStore();
      const limited = (spec: Parameters<typeof commitOf>[0]) => ({ ...commitOf(spec), maxValueBytes: 200 });
      const part = "x".repeat(78); // 80 bytes of JSON
      const grow = async (callId: string, path: string[], value: JsonValue, method: OutputMethod) =>
        store.commitCall(limited({ callId, writes: [write(path, value, method)] }));
      for (const [method, value] of [
        ["push", part],
        ["concat", [part]],
        ["merge", { [part]: 1 }],
        ["assign", { [part]: 1 }],
      ] as const) {
        const key = (n: number): JsonValue =>
          method === "merge" || method === "assign" ? { [`${part}${n}`]: n } : value;
        expect(await grow(`${method}1`, [method], key(1), method)).toEqual({ ok: true });
        expect(await grow(`${method}2`, [method], key(2), method)).toEqual({ ok: true });
        const before = await store.readState(THREAD);
        const stats = await store.stats(THREAD);
        expect(await grow(`${method}3`, [method], key(3), method)).toMatchObject({
          ok: false,
          error: { code: "OUTPUT_TOO_LARGE", reference: `†state.${method}` },
        });
        expect(await store.readState(THREAD)).toEqual(before);
        expect(await store.stats(THREAD)).toEqual(stats);
      }
      // a write below a variable grows it as well; one that leaves it smaller is taken
      expect(await grow("m0", ["m"], {}, "set")).toEqual({ ok: true });
      expect(await grow("m1", ["m", "a"], part, "set")).toEqual({ ok: true });
      expect(await grow("m2", ["m", "b"], part, "set")).toEqual({ ok: true });
      expect(await grow("m3", ["m", "c"], part, "set")).toMatchObject({
        ok: false,
        error: { code: "OUTPUT_TOO_LARGE", reference: "†state.m" },
      });
      expect(await grow("m4", ["m", "b"], 1, "set")).toEqual({ ok: true });
      expect(await grow("p", ["push"], [], "set")).toEqual({ ok: true });
    });

    it("holds what one commit writes in all, every fan-out target counted, to maxValueBytes", async () => {
      const store = await openStore();
      const part = "x".repeat(78); // 80 bytes of JSON
      const fanOut = (callId: string, keys: string[]) => ({
        ...commitOf({ callId, writes: keys.map((key) => write([key], part)) }),
        maxValueBytes: 200,
      });
      expect(await store.commitCall(fanOut("three", ["a", "b", "c"]))).toMatchObject({
        ok: false,
        error: { code: "OUTPUT_TOO_LARGE" },
      });
      expect(await store.readState(THREAD)).toEqual({});
      expect(await store.listCallRecords(RUN)).toEqual([]);
      expect(await store.commitCall(fanOut("two", ["a", "b"]))).toEqual({ ok: true });
      expect(await store.readState(THREAD)).toEqual({ a: part, b: part });
    });

    it("validates writes against the state schema at their path, and writes nothing on a violation", async () => {
      const store = await openStore();
      await store.openThread(THREAD, {
        stateSchema: {
          type: "object",
          properties: { user: { $ref: "#/$defs/user" }, tags: { type: "array", items: { type: "string" } } },
          $defs: { user: { type: "object", properties: { age: { type: "number" } } } },
        },
      });
      await commitOk(store, { callId: "ok", writes: [write(["user", "age"], 3)] });
      const bad = await store.commitCall(
        commitOf({ callId: "bad", writes: [write(["other"], 1), write(["user", "age"], "x")] }),
      );
      expect(bad).toMatchObject({
        ok: false,
        error: { code: "OUTPUT_SCHEMA_VIOLATION", reference: "†state.user.age" },
      });
      const push = await store.commitCall(commitOf({ callId: "tag", writes: [write(["tags"], 5, "push")] }));
      expect(push).toMatchObject({ ok: false, error: { code: "OUTPUT_SCHEMA_VIOLATION" } });
      expect(await store.readState(THREAD)).toEqual({ user: { age: 3 } });
    });

    it("checks the whole state when the schema is not a plain walk (required, additionalProperties: false)", async () => {
      const store = await openStore();
      await store.openThread(THREAD, {
        stateSchema: {
          type: "object",
          additionalProperties: false,
          properties: { a: { type: "object", required: ["id"] } },
        },
      });
      const extra = await store.commitCall(commitOf({ callId: "x", writes: [write(["b"], 1)] }));
      expect(extra).toMatchObject({ ok: false, error: { code: "OUTPUT_SCHEMA_VIOLATION" } });
      const created = await store.commitCall(commitOf({ callId: "y", writes: [write(["a", "name"], "n")] }));
      expect(created).toMatchObject({ ok: false, error: { code: "OUTPUT_SCHEMA_VIOLATION" } });
      await commitOk(store, { callId: "z", writes: [write(["a"], { id: 1 })] });
      await commitOk(store, { callId: "w", writes: [write(["a", "name"], "n")] });
    });

    it("stores copies: mutating the input or a returned value cannot change stored data", async () => {
      const store = await openStore();
      const input = { nested: { list: [1, 2] } };
      const output = { items: [1] };
      await commitOk(store, { callId: "a", writes: [write(["v"], input)], output: null });
      await commitOk(store, { callId: "b", output });
      input.nested.list.push(3);
      output.items.push(2);
      const state = await store.readState(THREAD);
      expect(state).toEqual({ v: { nested: { list: [1, 2] } } });
      expect(state.v).not.toBe(input);
      expect(() => {
        (state as Record<string, unknown>).v = 1;
      }).toThrow();
      const stored = await store.getCallOutput(THREAD, "b");
      expect(stored).toEqual({ value: { items: [1] } });
      expect(stored && "value" in stored && Object.isFrozen(stored.value)).toBe(true);
    });

    it("stores a record's wrote list as a frozen copy, whether the caller's list is frozen or not", async () => {
      const store = await openStore();
      const mutable = commitOf({ callId: "a", writes: [write(["x"], 1), write(["y"], 2)] });
      const given = mutable.record.wrote as string[];
      await store.commitCall(mutable);
      given.push("†state.z");
      const frozen = commitOf({ callId: "b", writes: [write(["w"], 1)] });
      await store.commitCall({ ...frozen, record: { ...frozen.record, wrote: Object.freeze(["†state.w"]) } });
      const records = await store.listCallRecords(RUN);
      expect(records.map((record) => record.wrote)).toEqual([["†state.x", "†state.y"], ["†state.w"]]);
      expect(records.every((record) => Object.isFrozen(record.wrote))).toBe(true);
    });

    it("never changes a snapshot returned by readState when later commits write in place", async () => {
      const store = await openStore();
      await commitOk(store, { callId: "a", writes: [write(["list"], [1]), write(["obj", "x"], { y: 1 })] });
      await commitOk(store, { callId: "b", writes: [write(["list"], 2, "push")] });
      const snapshot = await store.readState(THREAD);
      const copy = structuredClone(snapshot);
      await commitOk(store, { callId: "c", writes: [write(["list"], 3, "push")] });
      await commitOk(store, { callId: "d", writes: [write(["obj"], { x: { z: 2 } }, "merge")] });
      await commitOk(store, { callId: "e", writes: [write(["obj", "w"], 1), write(["n1"], 1)] });
      const refused = await store.commitCall(
        commitOf({ callId: "f", writes: [write(["list"], 4, "push"), write(["obj", "w", "v"], 1)] }),
      );
      expect(refused.ok).toBe(false);
      expect(snapshot).toEqual(copy);
      expect(snapshot).toEqual({ list: [1, 2], obj: { x: { y: 1 } } });
      expect(await store.readState(THREAD)).toEqual({
        list: [1, 2, 3],
        obj: { x: { y: 1, z: 2 }, w: 1 },
        n1: 1,
      });
      expect(await store.readState(THREAD)).toBe(await store.readState(THREAD));
    });

    it("rolls back in-place changes of earlier writes when a later write or the schema refuses the commit", async () => {
      const store = await openStore();
      await store.openThread(THREAD, {
        stateSchema: {
          type: "object",
          properties: { tags: { type: "array", items: { type: "string" } }, n: { type: "number" } },
        },
      });
      await commitOk(store, { callId: "a", writes: [write(["tags"], ["a"]), write(["obj"], { k: 1 })] });
      await commitOk(store, { callId: "b", writes: [write(["tags"], "b", "push")] });
      const broken = await store.commitCall(
        commitOf({ callId: "c", writes: [write(["tags"], "c", "push"), write(["obj", "k", "z"], 1)] }),
      );
      expect(broken).toMatchObject({ ok: false, error: { code: "OUTPUT_WRITE_FAILED" } });
      const invalid = await store.commitCall(
        commitOf({ callId: "d", writes: [write(["tags"], ["d"], "concat"), write(["n"], "x")] }),
      );
      expect(invalid).toMatchObject({
        ok: false,
        error: { code: "OUTPUT_SCHEMA_VIOLATION", reference: "†state.n" },
      });
      const item = await store.commitCall(commitOf({ callId: "e", writes: [write(["tags"], 5, "push")] }));
      expect(item).toMatchObject({
        ok: false,
        error: { code: "OUTPUT_SCHEMA_VIOLATION", reference: "†state.tags" },
      });
      expect(await store.readState(THREAD)).toEqual({ tags: ["a", "b"], obj: { k: 1 } });
      const tags = (await store.listVariables(THREAD)).find((v) => v.reference === "†state.tags");
      expect(tags).toMatchObject({ count: 2, bytes: 9, version: 2 });
    });

    it("keeps state frozen after further writes (structural sharing never exposes mutable nodes)", async () => {
      const store = await openStore();
      await commitOk(store, { callId: "a", writes: [write(["a", "b"], { c: 1 })] });
      await commitOk(store, { callId: "b", writes: [write(["a", "d"], [1], "concat")] });
      const state = (await store.readState(THREAD)) as { a: { b: object; d: number[] } };
      expect(Object.isFrozen(state.a) && Object.isFrozen(state.a.b) && Object.isFrozen(state.a.d)).toBe(true);
    });

    it("every snapshot is deeply frozen and never changes, whatever the commits between reads", async () => {
      const store = await openStore();
      const unfrozen = (value: unknown, at = ""): string[] => {
        if (typeof value !== "object" || value === null) return [];
        const own = Object.isFrozen(value) ? [] : [at || "/"];
        return own.concat(...Object.entries(value).map(([key, child]) => unfrozen(child, `${at}/${key}`)));
      };
      await commitOk(store, {
        callId: "s1",
        writes: [write(["list"], [{ n: 0 }]), write(["doc", "a"], { x: 1 })],
      });
      const first = await store.readState(THREAD);
      const firstText = JSON.stringify(first);
      // several commits between two reads: in place under the root, nested and accumulating writes
      await commitOk(store, { callId: "s2", writes: [write(["list"], { n: 1 }, "push")] });
      await commitOk(store, { callId: "s3", writes: [write(["doc", "b", "c"], [1, { d: 2 }])] });
      await commitOk(store, {
        callId: "s4",
        writes: [write(["list"], [{ n: 2 }], "concat"), write(["e"], { f: {} })],
      });
      await commitOk(store, { callId: "s5", writes: [write(["doc", "a"], { y: [3] }, "merge")] });
      const second = await store.readState(THREAD);
      expect(unfrozen(second)).toEqual([]);
      expect(JSON.stringify(first)).toBe(firstText);
      expect(second).toEqual({
        list: [{ n: 0 }, { n: 1 }, { n: 2 }],
        doc: { a: { x: 1, y: [3] }, b: { c: [1, { d: 2 }] } },
        e: { f: {} },
      });
      // an eviction, then a commit, between reads
      await store.keepLastN(THREAD, 1);
      await commitOk(store, { callId: "s6", writes: [write(["g"], { h: [{}] })] });
      const third = await store.readState(THREAD);
      expect(unfrozen(third)).toEqual([]);
      // a call output evicted by retention (the state itself unchanged), then a commit, between reads
      await commitOk(store, { callId: "o1", output: { kept: [1] } });
      await store.applyRetention(THREAD, { maxCallOutputs: 0 }, new Date());
      await commitOk(store, {
        callId: "s7",
        writes: [write(["i"], { j: [{}] }), write(["g", "h"], [2], "concat")],
      });
      const fourth = await store.readState(THREAD);
      expect(unfrozen(fourth)).toEqual([]);
      expect(fourth).toMatchObject({ g: { h: [{}, 2] }, i: { j: [{}] } });
      expect(third).toMatchObject({ g: { h: [{}] } });
      expect(JSON.stringify(second)).toBe(
        JSON.stringify({
          list: [{ n: 0 }, { n: 1 }, { n: 2 }],
          doc: { a: { x: 1, y: [3] }, b: { c: [1, { d: 2 }] } },
          e: { f: {} },
        }),
      );
    });
  });
}
