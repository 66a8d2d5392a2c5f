import type { JsonValue } from "@obelisk/core";
import { describe, expect, it } from "vitest";
import { bothStoreKinds, storesClosedAfterEach } from "../__fixtures__/both-stores.js";
import { commitOf, commitOk, THREAD, write } from "../conformance/commit-fixtures.js";
import { setValue } from "./set-value.js";

/** `levels` nested arrays around a 1 (`[[1]]` is 2 levels high). */
function nested(levels: number): JsonValue {
  let value: JsonValue = 1;
  for (let level = 0; level < levels; level++) value = [value];
  return value;
}

const kinds = bothStoreKinds("obelisk-depth-");

describe.each(kinds)(
  "a write is held to MAX_VALUE_DEPTH counted from the state's root ($name store, decision 0094)",
  (kind) => {
    const open = storesClosedAfterEach(kind);

    it("setValue refuses path segments + the value's height over 1000 with USAGE, and changes nothing", async () => {
      const store = open();
      await commitOk(store, { callId: "a", writes: [write(["n"], 1)] });
      const log = await store.readWriteLog(THREAD);
      await expect(setValue(store, THREAD, "†state.a.c.d.e.f", nested(996))).rejects.toMatchObject({
        code: "USAGE",
        message:
          "†state.a.c.d.e.f: the value would nest 1001 levels deep in the state (5 path segments + 996 levels of the value), deeper than 1000 levels, the most a stored value may nest (MAX_VALUE_DEPTH): a reader could not take it",
        data: { reference: "†state.a.c.d.e.f", maxDepth: 1000 },
        hint: expect.stringContaining("leave 995 levels"),
      });
      expect(await store.readState(THREAD)).toEqual({ n: 1 });
      expect(await store.readWriteLog(THREAD)).toEqual(log);
      await setValue(store, THREAD, "†state.a.c.d.e.f", nested(995));
      expect(await store.readState(THREAD)).toMatchObject({
        n: 1,
        a: { c: { d: { e: { f: nested(995) } } } },
      });
    });

    it("a commit whose write would nest too deep is OUTPUT_WRITE_FAILED and writes nothing, push counting one more", async () => {
      const store = open();
      await commitOk(store, { callId: "a", writes: [write(["n"], 1)] });
      const refusals = [
        write(["a", "b"], nested(999)),
        write(["a", "b"], nested(998), "push"),
        write(["a", "b"], nested(999), "concat"),
        write(["a", "b"], { k: nested(998) }, "merge"),
      ];
      for (const refused of refusals) {
        const result = await store.commitCall(commitOf({ callId: "b", writes: [write(["ok"], 1), refused] }));
        expect(result).toMatchObject({
          ok: false,
          error: { code: "OUTPUT_WRITE_FAILED", message: expect.stringContaining("deeper than 1000 levels") },
        });
      }
      expect(await store.readState(THREAD)).toEqual({ n: 1 });
      for (const [index, fits] of [
        write(["a", "b"], nested(998)),
        write(["a", "c"], nested(997), "push"),
        write(["a", "d"], nested(998), "concat"),
      ].entries())
        await commitOk(store, { callId: `f${index}`, writes: [fits] });
      // a scalar below a 999-segment path fits; pushed, it is an array item at level 1001
      const deep = Array.from({ length: 999 }, () => "k");
      await commitOk(store, { callId: "s", writes: [write(deep, 1)] });
      const pushed = await store.commitCall(
        commitOf({ callId: "p", writes: [write([...deep.slice(0, 998), "q"], 1, "push")] }),
      );
      expect(pushed).toMatchObject({ ok: true });
      const tooFar = await store.commitCall(
        commitOf({ callId: "t", writes: [write([...deep.slice(0, 998), "r", "q"], 1, "push")] }),
      );
      expect(tooFar).toMatchObject({
        ok: false,
        error: {
          code: "OUTPUT_WRITE_FAILED",
          message: expect.stringContaining("(1000 path segments + 0 levels of the value + 1 for push)"),
        },
      });
    });
  },
);
