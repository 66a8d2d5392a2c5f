import { asRunId } from "@obelisk/core";
import { describe, expect, it } from "vitest";
import type { StateStore, VariableMeta } from "../store-types.js";
import { commitOk, manualClock, THREAD, write } from "./commit-fixtures.js";
import type { OpenStore } from "./describe-store-conformance.js";

/** The listed variable at a reference (undefined: not listed). */
async function variable(store: StateStore, reference: string): Promise<VariableMeta | undefined> {
  return (await store.listVariables(THREAD)).find((meta) => meta.reference === reference);
}

/** Writes over existing variables: what happens to the variables below, descriptions, re-sent calls. */
export function overwriteCases(openStore: OpenStore): void {
  describe("writes over variables", () => {
    it("merge and assign keep the variables below the keys they do not replace (review 7 M2)", async () => {
      const store = await openStore();
      await commitOk(store, { callId: "o", writes: [write(["o"], { q: {} })] });
      await commitOk(store, { callId: "t", description: "child", writes: [write(["o", "q", "t"], "child")] });
      await commitOk(store, { callId: "m", writes: [write(["o"], { m: 1 }, "merge")] });
      await commitOk(store, { callId: "a", writes: [write(["o"], { n: 1 }, "assign")] });
      // a deep merge into q leaves t as it was
      await commitOk(store, { callId: "u", writes: [write(["o"], { q: { u: 1 } }, "merge")] });
      expect(await variable(store, "†state.o.q.t")).toMatchObject({
        description: "child",
        writer: { callId: "t" },
        version: 1,
      });
      expect(await store.readState(THREAD)).toEqual({ o: { q: { t: "child", u: 1 }, m: 1, n: 1 } });
      // a merge replacing t, and an assign replacing q, supersede what they replace
      await commitOk(store, { callId: "r", writes: [write(["o"], { q: { t: "new" } }, "merge")] });
      expect(await variable(store, "†state.o.q.t")).toBeUndefined();
      await commitOk(store, { callId: "t2", writes: [write(["o", "q", "t"], "again")] });
      await commitOk(store, { callId: "a2", writes: [write(["o"], { q: 1 }, "assign")] });
      expect(await variable(store, "†state.o.q.t")).toBeUndefined();
    });

    it("a deep merge refreshes a variable it changes inside, keeping its writer and description", async () => {
      const store = await openStore();
      await commitOk(store, { callId: "q", description: "the q", writes: [write(["o", "q"], { a: 1 })] });
      await commitOk(store, { callId: "m", writes: [write(["o"], { q: { b: 2 } }, "merge")] });
      expect(await variable(store, "†state.o.q")).toMatchObject({
        description: "the q",
        writer: { callId: "q" },
        count: 2,
        version: 2,
      });
    });

    it("a later run writing below a variable refreshes its facts, keeping its writer and that writer's run", async () => {
      const store = await openStore();
      const [r1, r2] = [asRunId("r1"), asRunId("r2")];
      await commitOk(store, { callId: "val$1", runId: r1, writes: [write(["a"], { b: 1 })] });
      await commitOk(store, { callId: "val$1", runId: r2, writes: [write(["a", "c"], 2)] });
      // writer and runId name one write together: val$1 of r2 did not write †state.a
      expect(await variable(store, "†state.a")).toMatchObject({
        writer: { callId: "val$1" },
        runId: "r1",
        count: 2,
        version: 2,
      });
      expect(await variable(store, "†state.a.c")).toMatchObject({ writer: { callId: "val$1" }, runId: "r2" });
    });

    it("push and concat keep the element variables they append after (review 7 M2)", async () => {
      const store = await openStore();
      await commitOk(store, { callId: "e", description: "first", writes: [write(["l", 0], 1)] });
      await commitOk(store, { callId: "p", writes: [write(["l"], 3, "push")] });
      await commitOk(store, { callId: "c", writes: [write(["l"], [4], "concat")] });
      expect(await variable(store, "†state.l[0]")).toMatchObject({ description: "first", version: 1 });
      expect(await store.readState(THREAD)).toEqual({ l: [1, 3, 4] });
      await commitOk(store, { callId: "s", writes: [write(["l"], [])] });
      expect(await variable(store, "†state.l[0]")).toBeUndefined();
    });

    it("a write without a description keeps the variable's; a new one replaces it (review 7 M3)", async () => {
      const store = await openStore();
      await commitOk(store, { callId: "a", description: "arr", writes: [write(["a"], [1])] });
      await commitOk(store, { callId: "c", writes: [write(["a"], [3], "concat")] });
      await commitOk(store, { callId: "p", writes: [write(["a"], 4, "push")] });
      expect(await variable(store, "†state.a")).toMatchObject({
        description: "arr",
        writer: { callId: "p" },
      });
      await commitOk(store, { callId: "o", description: "parent desc", writes: [write(["o"], { x: 1 })] });
      await commitOk(store, { callId: "m", writes: [write(["o"], { y: 1 }, "merge")] });
      expect((await variable(store, "†state.o"))?.description).toBe("parent desc");
      await commitOk(store, { callId: "n", description: "new", writes: [write(["o"], { z: 1 }, "assign")] });
      expect((await variable(store, "†state.o"))?.description).toBe("new");
    });

    it("a satisfied commit without an output changes nothing; one with an output stores it (review 7 M4)", async () => {
      // the scheduler sends a satisfied call's output only when the thread lost it or holds another value
      const clock = manualClock();
      const store = await openStore({ now: clock.now });
      await commitOk(store, { callId: "c1", output: "co" });
      clock.advance(60_000);
      await commitOk(store, { callId: "b", writes: [write(["b"], 1)] });
      clock.advance(60_000);
      const before = await variable(store, "†calls.c1");
      await commitOk(store, { callId: "c1", status: "satisfied" });
      expect(await variable(store, "†calls.c1")).toEqual(before);
      await commitOk(store, { callId: "c1", status: "satisfied", output: "other run's" });
      expect(await store.getCallOutput(THREAD, "c1")).toEqual({ value: "other run's" });
      await store.keepLastN(THREAD, 1);
      expect((await store.listVariables(THREAD)).map((meta) => meta.reference)).toEqual(["†calls.c1"]);
      await store.keepLastN(THREAD, 0);
      await commitOk(store, { callId: "c1", status: "satisfied", output: "co" });
      expect(await store.getCallOutput(THREAD, "c1")).toEqual({ value: "co" });
    });
  });
}
