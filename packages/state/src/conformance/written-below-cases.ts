import type { JsonObject, JsonValue, OutputMethod } from "@obelisk/core";
import { describe, expect, it } from "vitest";
import { describeValue } from "../internal/describe-value.js";
import type { StateWrite } from "../store-types.js";
import { getValue } from "../variables/get-value.js";
import { THREAD, write } from "./commit-fixtures.js";
import type { OpenStore } from "./describe-store-conformance.js";

/** A small deterministic random source (a linear congruential generator): the same writes on every store. */
function randomSource(seed: number): (below: number) => number {
  let state = seed;
  return (below) => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    // the high bits (an LCG's low bits repeat with a short period)
    return Math.floor((state / 2 ** 31) * below);
  };
}

const KEYS = ["a", "b", "k é", "0"] as const;

/**
 * A random write that mostly fits the state: down existing containers, then an existing or a new key
 * (index) of the last one, with a method that fits what is there (one write in eight is any method).
 */
function randomWrite(random: (below: number) => number, state: JsonObject): StateWrite {
  const path: (string | number)[] = [];
  let node: JsonValue = state;
  for (;;) {
    const keys: (string | number)[] = Array.isArray(node)
      ? Array.from({ length: node.length + 1 }, (_, at) => at)
      : [...Object.keys(node as JsonObject), KEYS[random(KEYS.length)] as string];
    const key = keys[random(keys.length)] as string | number;
    path.push(key);
    const next: JsonValue | undefined = Array.isArray(node)
      ? node[key as number]
      : (node as JsonObject)[key as string];
    if (next === undefined || next === null || typeof next !== "object" || random(3) === 0) {
      const value = randomValue(random);
      if (random(8) === 0) {
        const method = (["set", "push", "concat", "merge", "assign"] as const)[random(5)] as OutputMethod;
        return write(path, method === "concat" ? [value] : value, method);
      }
      // push and concat onto nothing create the array
      if (next === undefined && random(3) === 0)
        return random(2) === 0 ? write(path, value, "push") : write(path, [value], "concat");
      if (Array.isArray(next))
        return random(2) === 0 ? write(path, value, "push") : write(path, [value], "concat");
      if (next !== undefined && next !== null && typeof next === "object" && isObject(value))
        return write(path, value, random(2) === 0 ? "merge" : "assign");
      return write(path, value);
    }
    node = next;
  }
}

const isObject = (value: JsonValue): value is JsonObject =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** A random small value: a primitive, an array or an object. */
function randomValue(random: (below: number) => number): JsonValue {
  switch (random(5)) {
    case 0:
      return random(1000) - 500;
    case 1:
      return "é😀x".slice(0, random(4));
    case 2:
      return Array.from({ length: random(3) }, () => random(10));
    case 3:
      return Object.fromEntries(
        Array.from({ length: random(3) }, () => [KEYS[random(KEYS.length)], random(10)]),
      );
    default:
      return random(2) === 0 ? null : { "k é": [random(5)] };
  }
}

/** Variables above written paths: their facts as a walk of their values gives them, however they were written. */
export function writtenBelowCases(openStore: OpenStore): void {
  describe("variables above a write", () => {
    it("keep the type, bytes, count and preview a walk of their value gives, through 300 random writes below and above them", async () => {
      const store = await openStore();
      const random = randomSource(20_261_126);
      let committed = 0;
      for (let index = 0; index < 300; index++) {
        const state = await store.readState(THREAD);
        // one write in six comes with a second (the commit's variables planned together)
        const writes = Array.from({ length: random(6) === 0 ? 2 : 1 }, () => randomWrite(random, state));
        const result = await store.commitCall({
          record: {
            threadId: THREAD,
            runId: "run-1" as never,
            callId: `c${index}` as never,
            tool: "tool",
            status: "succeeded",
            attempts: 1,
            outputMethod: writes[0]?.method ?? "set",
            wrote: writes.map((w) => w.reference),
          },
          writes,
        });
        if (!result.ok) continue;
        committed++;
        for (const meta of await store.listVariables(THREAD)) {
          const got = await getValue(store, THREAD, meta.reference);
          if (!("value" in got)) throw new Error(`${meta.reference} has no value`);
          const { type, bytes, count, countUnit, preview } = meta;
          expect({ reference: meta.reference, type, bytes, count, countUnit, preview }).toEqual({
            reference: meta.reference,
            ...describeValue(got.value),
          });
        }
      }
      // most writes fit (one in eight takes any method: a push onto an object is refused)
      expect(committed).toBeGreaterThan(250);
      // 1-6 s on a loaded 2-core machine (every variable read back after each write)
    }, 60_000);
  });
}
