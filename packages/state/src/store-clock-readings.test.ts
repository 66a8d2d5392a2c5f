import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ObeliskError } from "@obelisk/core";
import { afterAll, describe, expect, it } from "vitest";
import { commitOf, THREAD, write } from "./conformance/commit-fixtures.js";
import { createMemoryStore } from "./memory-store.js";
import { createSqliteStore } from "./sqlite-store.js";
import type { StoreOptions } from "./store-options.js";
import type { StateStore } from "./store-types.js";
import { setValue } from "./variables/set-value.js";
import { unsetValue } from "./variables/unset-value.js";

const dir = mkdtempSync(join(tmpdir(), "obelisk-clock-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let files = 0;
const stores: [string, (options: StoreOptions) => StateStore][] = [
  ["memory", (options) => createMemoryStore(options)],
  ["SQLite", (options) => createSqliteStore(join(dir, `store-${++files}.db`), options)],
];

const START = Date.UTC(2026, 0, 1);
const TIME_EXPECTED =
  "must return ms since the epoch (a number from 0 to 8640000000000000, as Date.now() answers), got";

/** What `act` threw or rejected with (undefined when it did neither). */
async function caught(act: () => unknown): Promise<unknown> {
  try {
    await act();
    return undefined;
  } catch (error) {
    return error;
  }
}

describe.each(stores)(
  "the %s store's own clock is checked at each reading (decision 0061)",
  (_name, open) => {
    it.each([
      ["NaN", Number.NaN, "NaN"],
      ["Infinity", Number.POSITIVE_INFINITY, "Infinity"],
      ["a negative time", -1, "-1"],
      ["past the last Date", 8.64e15 + 1, "8640000000000001"],
      ["a string", "1", '"1"'],
    ])(
      "%s: the commit reading it is USAGE naming now(), with a hint, and writes nothing",
      async (_label, bad, shown) => {
        let reading: unknown = START;
        const store = open({ now: () => reading as number });
        await store.openThread(THREAD);
        reading = bad;
        const error = await caught(() =>
          store.commitCall(commitOf({ callId: "a", writes: [write(["x"], 1)] })),
        );
        expect(ObeliskError.is(error, "USAGE")).toBe(true);
        expect((error as ObeliskError).message).toBe(`the store's now() ${TIME_EXPECTED} ${shown}`);
        expect((error as ObeliskError).hint).toContain("now: () => Date.now()");
        // nothing was written; a good reading afterwards commits as before
        reading = START + 1;
        expect(await store.readState(THREAD)).toEqual({});
        const result = await store.commitCall(commitOf({ callId: "a", writes: [write(["x"], 1)] }));
        expect(result.ok).toBe(true);
        expect(await store.readState(THREAD)).toEqual({ x: 1 });
        await store.close();
      },
    );

    it("a clock that throws is USAGE saying so, with the clock's error as its cause", async () => {
      let broken = false;
      const store = open({
        now: () => {
          if (broken) throw new Error("clock unplugged");
          return START;
        },
      });
      await store.openThread(THREAD);
      broken = true;
      const error = await caught(() =>
        store.commitCall(commitOf({ callId: "a", writes: [write(["x"], 1)] })),
      );
      expect(error).toMatchObject({ code: "USAGE", message: "the store's now() threw" });
      expect((error as ObeliskError).cause).toMatchObject({ message: "clock unplugged" });
      broken = false;
      await store.close();
    });

    it("zero, the last time a Date holds, and a clock going backwards are taken as read", async () => {
      let reading = 8.64e15;
      const store = open({ now: () => reading });
      await store.openThread(THREAD);
      expect((await store.commitCall(commitOf({ callId: "a", writes: [write(["x"], 1)] }))).ok).toBe(true);
      reading = 0;
      expect((await store.commitCall(commitOf({ callId: "b", writes: [write(["y"], 2)] }))).ok).toBe(true);
      expect(await store.readState(THREAD)).toEqual({ x: 1, y: 2 });
      await store.close();
    });

    it("setValue's and unsetValue's own now option are checked the same way", async () => {
      const store = open({});
      await store.openThread(THREAD);
      const set = await caught(() => setValue(store, THREAD, "†state.x", 1, { now: () => Number.NaN }));
      expect(set).toMatchObject({ code: "USAGE", message: `setValue's now() ${TIME_EXPECTED} NaN` });
      await setValue(store, THREAD, "†state.x", 1);
      const unset = await caught(() => unsetValue(store, THREAD, "†state.x", { now: () => -5 }));
      expect(unset).toMatchObject({ code: "USAGE", message: `unsetValue's now() ${TIME_EXPECTED} -5` });
      expect(await store.readState(THREAD)).toEqual({ x: 1 });
      await store.close();
    });
  },
);
