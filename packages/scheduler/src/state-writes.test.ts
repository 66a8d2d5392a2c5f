import type { JsonValue, OutputMethod } from "@obelisk/core";
import type { StateWrite } from "@obelisk/state";
import { describe, expect, it, vi } from "vitest";
import { missingWrites, newReapplication } from "./state-writes.js";

/** A large stored value as a tool's frozen copy is (10,000 rows). */
const rows = (tag: string) =>
  Object.freeze(Array.from({ length: 10_000 }, (_, i) => Object.freeze({ i, name: `${tag} ${i}` })));
const write = (method: OutputMethod, value: JsonValue): StateWrite => ({
  path: ["x"],
  method,
  value,
  reference: "†state.x",
});
/** The characters JSON.stringify wrote while `work` ran (canonical JSON writes every value through it). */
const stringified = <T>(work: () => T): { result: T; chars: number } => {
  let chars = 0;
  const original = JSON.stringify;
  const spy = vi.spyOn(JSON, "stringify").mockImplementation((...args: Parameters<typeof JSON.stringify>) => {
    const text = original(...args);
    chars += typeof text === "string" ? text.length : 0;
    return text;
  });
  try {
    return { result: work(), chars };
  } finally {
    spy.mockRestore();
  }
};

describe("missingWrites of a satisfied call whose target holds the very recorded value", () => {
  // a satisfied re-send compared a 9.5 MB value with itself by writing both out (review s42 q2 #3)
  const big = rows("a");
  const cases: [OutputMethod, JsonValue, JsonValue][] = [
    ["set", big, big],
    ["merge", Object.freeze({ rows: big }), Object.freeze({ rows: big })],
    ["assign", Object.freeze({ rows: big, n: 1 }), Object.freeze({ rows: big })],
    ["push", Object.freeze([1, big]), big],
    ["concat", Object.freeze([big, 2]), Object.freeze([big, 2])],
  ];
  it.each(cases)("%s: found without writing the value out", (method, held, recorded) => {
    const { result, chars } = stringified(() =>
      missingWrites(() => held, [write(method, recorded)], newReapplication()),
    );
    expect(result).toEqual([]);
    expect(chars).toBeLessThan(100);
  });

  it.each(cases)(
    "%s: an equal value held as another object is found by its JSON",
    (method, held, recorded) => {
      const copy = JSON.parse(JSON.stringify(held)) as JsonValue;
      expect(missingWrites(() => copy, [write(method, recorded)], newReapplication())).toEqual([]);
    },
  );

  it("re-applies what the target no longer holds", () => {
    const other = rows("b");
    const reapplication = newReapplication();
    expect(missingWrites(() => other, [write("set", big)], reapplication)).toHaveLength(1);
    expect(missingWrites(() => Object.freeze([other]), [write("push", big)], reapplication)).toHaveLength(1);
    expect(
      missingWrites(() => Object.freeze([0, big]), [write("concat", [big, 1])], reapplication),
    ).toHaveLength(1);
    expect(missingWrites(() => Object.freeze(["1"]), [write("push", 1)], reapplication)).toHaveLength(1);
  });
});
