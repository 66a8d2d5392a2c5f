import { asRunId, asThreadId } from "@obelisk/core";
import { describe, expect, it } from "vitest";
import { bothStoreKinds, storesClosedAfterEach } from "../__fixtures__/both-stores.js";
import { commitOk, THREAD, write } from "../conformance/commit-fixtures.js";
import type { StateStore } from "../store-types.js";
import { setValue } from "./set-value.js";

const FRESH = asThreadId("fresh");
const stateSchema = { type: "object", properties: { n: { type: "integer", minimum: 0 } } };

/** `store` with some of its methods taken away or replaced (a custom store that lacks them). */
function customized(store: StateStore, changes: Partial<Record<keyof StateStore, unknown>>): StateStore {
  return new Proxy(store, {
    get: (target, key) => {
      if (Object.hasOwn(changes, key)) return changes[key as keyof StateStore];
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

/** What a refused set must leave as it was. */
async function facts(store: StateStore) {
  return Promise.all(
    [THREAD, FRESH].map(async (threadId) => ({
      thread: await store.getThread(threadId),
      next: await store.nextCallNumber?.(threadId),
      state: await store.readState(threadId),
      log: await store.readWriteLog(threadId),
    })),
  );
}

const setIds = async (store: StateStore): Promise<string[]> =>
  (await store.listCallRecords(asRunId("obelisk.set"))).map((record) => record.callId);

const kinds = bothStoreKinds("obelisk-set-");

describe.each(kinds)("setValue on the $name store", (kind) => {
  const open = storesClosedAfterEach(kind);
  const ways = [
    { way: "its own commitNumbered", wrap: (store: StateStore) => store },
    {
      way: "a store without commitNumbered and nextCallNumber (checked on a scratch copy)",
      wrap: (store: StateStore) =>
        customized(store, { commitNumbered: undefined, nextCallNumber: undefined }),
    },
  ];

  describe.each(ways)("through $way", ({ wrap }) => {
    it("a refused set takes no number, creates no thread and gives no schema", async () => {
      const real = open();
      const store = wrap(real);
      await commitOk(real, { callId: "a", writes: [write(["n"], "text"), write(["o"], 1)] });
      const before = await facts(real);
      const refusals: [string, unknown, object, string][] = [
        ["†state.n", -1, { stateSchema }, "OUTPUT_SCHEMA_VIOLATION"],
        ["†state.o.x", 1, {}, "OUTPUT_WRITE_FAILED"],
        ["†state.big", "x".repeat(50), { maxValueBytes: 10 }, "OUTPUT_WRITE_FAILED"],
      ];
      for (const [reference, value, options, code] of refusals) {
        for (const threadId of [THREAD, FRESH]) {
          if (threadId === FRESH && reference === "†state.o.x") continue;
          await expect(setValue(store, threadId, reference, value as never, options)).rejects.toMatchObject({
            code,
            data: { reference },
          });
        }
      }
      expect(await facts(real)).toEqual(before);
      expect(before[1]?.thread).toBeUndefined();
      expect(before[0]?.thread?.stateSchema).toBeUndefined();
    });

    it("an accepted set takes the next number, creates the thread and gives it the schema", async () => {
      const real = open();
      const store = wrap(real);
      await setValue(store, THREAD, "†state.n", 1);
      await setValue(store, THREAD, "†state.n", -1, { stateSchema }).catch(() => undefined);
      expect(await setValue(store, THREAD, "†state.n", 2, { stateSchema })).toEqual({
        callId: "obelisk-set$2",
        reference: "†state.n",
      });
      expect((await real.getThread(THREAD))?.stateSchema).toEqual(stateSchema);
      expect(await setValue(store, FRESH, "†state.n", 3, { stateSchema })).toMatchObject({
        callId: "obelisk-set$1",
      });
      expect((await real.getThread(FRESH))?.stateSchema).toEqual(stateSchema);
      expect(await real.readState(FRESH)).toEqual({ n: 3 });
      expect(await real.reserveCallNumbers(THREAD, 1)).toBe(3);
      expect(await setIds(real)).toEqual(["obelisk-set$1", "obelisk-set$2", "obelisk-set$1"]);
    });
  });

  it("takes its number in the commit: no reservation that could fail after it (no number reused)", async () => {
    const real = open();
    const failing = customized(real, {
      reserveCallNumbers: () => {
        throw new Error("reserve failed");
      },
    });
    await setValue(failing, THREAD, "†state.a", 1);
    await setValue(failing, THREAD, "†state.b", 2);
    expect(await setIds(real)).toEqual(["obelisk-set$1", "obelisk-set$2"]);
    expect(await real.reserveCallNumbers(THREAD, 1)).toBe(3);
  });

  it("a store without commitNumbered that refuses a write itself loses the number, never reuses it", async () => {
    const real = open();
    let refuse = true;
    const picky = customized(real, {
      commitNumbered: undefined,
      commitCall: (commit: Parameters<StateStore["commitCall"]>[0]) =>
        refuse
          ? { ok: false, error: { code: "OUTPUT_WRITE_FAILED", message: "this store's own limit" } }
          : real.commitCall(commit),
    });
    await expect(setValue(picky, THREAD, "†state.a", 1)).rejects.toMatchObject({
      code: "OUTPUT_WRITE_FAILED",
    });
    refuse = false;
    expect(await setValue(picky, THREAD, "†state.a", 1)).toMatchObject({ callId: "obelisk-set$2" });
  });
});
