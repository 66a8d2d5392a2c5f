import { afterEach, describe, expect, it } from "vitest";
import { THREAD } from "../conformance/commit-fixtures.js";
import { createMemoryStore } from "../memory-store.js";
import type { StateStore } from "../store-types.js";
import { setValue } from "./set-value.js";
import { unsetValue } from "./unset-value.js";

/** `store` without `removeNumbered` (a custom store written before it existed). */
function withoutRemoval(store: StateStore): StateStore {
  return new Proxy(store, {
    get: (target, key) => {
      if (key === "removeNumbered") return undefined;
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

describe("unsetValue", () => {
  const opened: StateStore[] = [];
  afterEach(async () => {
    for (const store of opened.splice(0)) await store.close();
  });
  const open = (): StateStore => {
    const store = createMemoryStore();
    opened.push(store);
    return store;
  };

  it("refuses on a store without removeNumbered (USAGE), changing nothing", async () => {
    const store = open();
    await setValue(store, THREAD, "†state.approvals.pay", true);
    const log = await store.readWriteLog(THREAD);
    await expect(unsetValue(withoutRemoval(store), THREAD, "†state.approvals.pay")).rejects.toMatchObject({
      code: "USAGE",
      hint: expect.stringContaining("removeNumbered"),
    });
    expect(await store.readState(THREAD)).toEqual({ approvals: { pay: true } });
    expect(await store.readWriteLog(THREAD)).toEqual(log);
    expect(await store.nextCallNumber?.(THREAD)).toBe(2);
  });

  it("names the reference as stored, whichever way it was written", async () => {
    const store = open();
    await setValue(store, THREAD, "†state.approvals.pay", true);
    expect(await unsetValue(store, THREAD, '†state["approvals"]["pay"]')).toMatchObject({
      removed: true,
      reference: "†state.approvals.pay",
      variables: ["†state.approvals.pay"],
    });
  });
});
