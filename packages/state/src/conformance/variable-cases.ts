import { describe, expect, it } from "vitest";
import { getValue } from "../variables/get-value.js";
import { setValue } from "../variables/set-value.js";
import { commitOk, manualClock, THREAD, write } from "./commit-fixtures.js";
import type { OpenStore } from "./describe-store-conformance.js";

/** Variable metadata, previews, overlapping paths, get and set. */
export function variableCases(openStore: OpenStore): void {
  describe("variables", () => {
    it("keeps metadata per written path: type, bytes, count with unit, writer, run, times, version", async () => {
      const clock = manualClock();
      const store = await openStore({ now: clock.now });
      await commitOk(store, {
        callId: "w$1",
        tool: "writer",
        description: "greeting",
        writes: [write(["text"], "héllo")],
      });
      clock.advance(1000);
      await commitOk(store, { callId: "w$2", tool: "writer", writes: [write(["text"], "hello world")] });
      const [meta] = await store.listVariables(THREAD);
      expect(meta).toEqual({
        reference: "†state.text",
        scope: "state",
        type: "string",
        bytes: 13,
        count: 11,
        countUnit: "characters",
        // a write without a description keeps the variable's
        description: "greeting",
        writer: { callId: "w$2", tool: "writer" },
        runId: "run-1",
        createdAt: "2025-01-01T00:00:00.000Z",
        updatedAt: "2025-01-01T00:00:01.000Z",
        version: 2,
        preview: '"hello world"',
      });
    });

    it("bounds previews: a 5-key object of 100 KB strings gets a short preview", async () => {
      const store = await openStore();
      const big = "x".repeat(100_000);
      await commitOk(store, {
        callId: "a",
        writes: [write(["big"], { a: big, b: big, c: big, d: big, e: big })],
      });
      const [meta] = await store.listVariables(THREAD);
      expect(meta?.bytes).toBeGreaterThan(500_000);
      expect(meta?.preview.length).toBeLessThanOrEqual(240);
      expect(meta).toMatchObject({ count: 5, countUnit: "keys" });
    });

    it("supersedes variables below a written path, and refreshes variables above one", async () => {
      const store = await openStore();
      await commitOk(store, { callId: "a", writes: [write(["user", "name"], "Ada")] });
      await commitOk(store, { callId: "b", writes: [write(["user"], { id: 1 })] });
      expect((await store.listVariables(THREAD)).map((v) => v.reference)).toEqual(["†state.user"]);
      await commitOk(store, { callId: "c", writes: [write(["user", "age"], 36)] });
      const variables = await store.listVariables(THREAD);
      expect(variables.map((v) => v.reference).sort()).toEqual(["†state.user", "†state.user.age"]);
      expect(variables.find((v) => v.reference === "†state.user")).toMatchObject({
        count: 2,
        version: 2,
        writer: { callId: "b" },
      });
    });

    it("counts and pages strings by characters (code points): a page never cuts an emoji in half", async () => {
      const store = await openStore();
      await commitOk(store, { callId: "a", writes: [write(["emoji"], "😀😀😀 naïve")] });
      expect(await getValue(store, THREAD, "†state.emoji", { offset: 1, limit: 2 })).toEqual({
        found: true,
        text: "😀😀",
        offset: 1,
        limit: 2,
        total: 9,
      });
      const meta = (await store.listVariables(THREAD)).find((v) => v.reference === "†state.emoji");
      expect(meta).toMatchObject({ count: 9, countUnit: "characters" });
    });

    it("gets values, pages of arrays and strings, and tells a stored null from a missing path", async () => {
      const store = await openStore();
      await commitOk(store, {
        callId: "a",
        writes: [write(["list"], [1, 2, 3, 4, 5]), write(["text"], "abcdef"), write(["none"], null)],
      });
      await commitOk(store, { callId: "out", output: { deep: [10, 20] } });
      expect(await getValue(store, THREAD, "†state.list")).toEqual({ found: true, value: [1, 2, 3, 4, 5] });
      expect(await getValue(store, THREAD, "†state.list", { offset: 1, limit: 2 })).toEqual({
        found: true,
        items: [2, 3],
        offset: 1,
        limit: 2,
        total: 5,
      });
      expect(await getValue(store, THREAD, "†state.text", { offset: 4 })).toEqual({
        found: true,
        text: "ef",
        offset: 4,
        limit: 2,
        total: 6,
      });
      expect(await getValue(store, THREAD, "†state.none")).toEqual({ found: true, value: null });
      expect(await getValue(store, THREAD, "†state.missing")).toEqual({ found: false });
      expect(await getValue(store, THREAD, "†calls.out.deep[-1]")).toEqual({ found: true, value: 20 });
      expect(await getValue(store, THREAD, "†calls.nope")).toEqual({ found: false });
      await expect(getValue(store, THREAD, "†state.list", { limit: -1 })).rejects.toMatchObject({
        code: "USAGE",
      });
      await expect(getValue(store, THREAD, "†input.x")).rejects.toMatchObject({ code: "USAGE" });
      await expect(getValue(store, THREAD, "†state.__proto__")).rejects.toMatchObject({
        code: "REF_FORBIDDEN_SEGMENT",
      });
    });

    it("sets a value with the same checks as a tool write", async () => {
      const store = await openStore();
      await store.openThread(THREAD, {
        stateSchema: {
          type: "object",
          properties: { approvals: { type: "object", additionalProperties: { type: "boolean" } } },
        },
      });
      const first = await setValue(store, THREAD, "†state.approvals.deploy", true, {
        description: "approved by Ada",
      });
      expect(await getValue(store, THREAD, "†state.approvals.deploy")).toEqual({ found: true, value: true });
      await expect(setValue(store, THREAD, "†state.approvals.other", "yes")).rejects.toMatchObject({
        code: "OUTPUT_SCHEMA_VIOLATION",
      });
      await expect(setValue(store, THREAD, "†calls.x", 1)).rejects.toMatchObject({
        code: "OUTPUT_PATH_READONLY",
      });
      await expect(setValue(store, THREAD, "†state", 1)).rejects.toMatchObject({ code: "USAGE" });
      const second = await setValue(store, THREAD, "†state.approvals.more", false);
      expect(second.callId).not.toBe(first.callId);
      const [meta] = await store.listVariables(THREAD);
      expect(meta).toMatchObject({ reference: "†state.approvals.more", writer: { tool: "obelisk.set" } });
    });
  });
}
