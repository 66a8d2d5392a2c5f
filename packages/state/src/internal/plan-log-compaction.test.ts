import { applyOutput, type JsonObject, type JsonValue, type OutputMethod, type Path } from "@obelisk/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type CompactionEntry, compactionRounds, planLogCompaction, standIn } from "./plan-log-compaction.js";
import { unsetAtPath } from "./unset-at-path.js";

interface Entry extends CompactionEntry {
  readonly value: JsonValue;
}

/** Folds log entries from the empty state, as a reader of the write log (or a store reopening it) does. */
function fold(entries: readonly Entry[]): JsonObject {
  let state: JsonObject = {};
  for (const entry of entries) {
    if (entry.op === "reset") state = {};
    else if (entry.op === "unset") state = unsetAtPath(state, entry.path);
    else {
      const applied = applyOutput(state, entry.path, entry.method, entry.value);
      if (!applied.ok) throw new Error(`entry does not apply: ${applied.message}`);
      state = applied.value as JsonObject;
    }
  }
  return state;
}

/** The log compaction leaves. */
function compact(entries: readonly Entry[]): Entry[] {
  const fates = planLogCompaction(entries);
  const kept: Entry[] = [];
  entries.forEach((entry, index) => {
    const fate = fates[index];
    if (fate === "keep") kept.push(entry);
    else if (fate === "standIn") kept.push({ ...entry, value: standIn(entry.value), compacted: true });
  });
  return kept;
}

const segment = fc.oneof(fc.constantFrom("a", "b", "0"), fc.constantFrom(0, 1, 2));
const path = fc
  .tuple(fc.constantFrom("a", "b"), fc.array(segment, { maxLength: 3 }))
  .map(([top, rest]): Path => [top, ...rest]);
const leaf = fc.oneof(fc.constantFrom("x", "long text"), fc.integer({ min: 0, max: 9 }), fc.constant(null));
const value: fc.Arbitrary<JsonValue> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    { arbitrary: leaf, weight: 2 },
    { arbitrary: fc.array(tie("value"), { maxLength: 3 }), weight: 2 },
    {
      arbitrary: fc.dictionary(fc.constantFrom("a", "b", "0", "c"), tie("value"), { maxKeys: 3 }),
      weight: 3,
    },
  ),
})).value as fc.Arbitrary<JsonValue>;
interface Operation {
  readonly kind: "write" | "unset" | "reset";
  readonly path: Path;
  readonly method: OutputMethod;
  readonly value: JsonValue;
}

const operation: fc.Arbitrary<Operation> = fc.record({
  kind: fc.oneof(
    { arbitrary: fc.constant<Operation["kind"]>("write"), weight: 30 },
    { arbitrary: fc.constant<Operation["kind"]>("unset"), weight: 8 },
    { arbitrary: fc.constant<Operation["kind"]>("reset"), weight: 1 },
  ),
  path,
  method: fc.constantFrom<OutputMethod>("set", "set", "set", "merge", "assign", "push", "concat"),
  value,
});

/**
 * What long-lived threads repeat, a few times over on one path, after a write of the path or not: a path
 * written and one below it; a value written below it, then removed at its own path, at the path above, or
 * both; keys below it written and removed in turn. So that the rules about such repeats meet each other
 * and the random operations around them often.
 */
const cycle: fc.Arbitrary<Operation[]> = fc
  .tuple(
    path,
    segment,
    segment,
    fc.constantFrom("deeper", "removedAt", "removedAbove", "removedBoth", "newKeys"),
    fc.boolean(),
    fc.array(value, { minLength: 2, maxLength: 6 }),
  )
  .map(([at, below, other, kind, primed, values]) => {
    const deeper: Path = [...at, below];
    const write = (to: Path, written: JsonValue): Operation => ({
      kind: "write",
      path: to,
      method: "set",
      value: written,
    });
    const unset = (from: Path): Operation => ({ kind: "unset", path: from, method: "set", value: null });
    const repeats = values.flatMap((written, index): Operation[] => {
      if (kind === "deeper") return [write(index % 2 === 0 ? at : deeper, written)];
      if (kind === "newKeys") {
        // a key per repeat below one path (two keys here, alternating), each removed at once
        const key: Path = [...at, index % 2 === 0 ? below : other];
        return [write(key, written), unset(key)];
      }
      return [
        write(deeper, written),
        ...(kind === "removedAbove" ? [] : [unset(deeper)]),
        ...(kind === "removedAt" ? [] : [unset(at)]),
      ];
    });
    return primed ? [write(at, values[0] as JsonValue), ...repeats] : repeats;
  });
const operations = fc
  .array(fc.oneof({ arbitrary: operation.map((op) => [op]), weight: 3 }, { arbitrary: cycle, weight: 1 }), {
    maxLength: 40,
    size: "max",
  })
  .map((groups) => groups.flat());

/** A log as a store keeps it: only the operations that applied to the state of their time. */
function logOf(operations: readonly Operation[]): Entry[] {
  const log: Entry[] = [];
  let state: JsonObject = {};
  for (const op of operations) {
    if (op.kind === "reset") {
      log.length = 0;
      log.push({ op: "reset", path: ["x"], method: "set", value: null });
      state = {};
    } else if (op.kind === "unset") {
      state = unsetAtPath(state, op.path);
      log.push({ op: "unset", path: op.path, method: "set", value: null });
    } else {
      const applied = applyOutput(state, op.path, op.method, op.value);
      if (!applied.ok) continue;
      state = applied.value as JsonObject;
      log.push({ path: op.path, method: op.method, value: op.value });
    }
  }
  return log;
}

describe("planLogCompaction", () => {
  it("the compacted log folds to what the whole log folds to, and compacting it again changes nothing", () => {
    fc.assert(
      fc.property(operations, (ops) => {
        const log = logOf(ops);
        const compacted = compact(log);
        expect(fold(compacted)).toEqual(fold(log));
        expect(compact(compacted)).toEqual(compacted);
      }),
      { numRuns: 3000, seed: 20240601 },
    );
  });

  it("a long chain of pushes between two sets of a nested path is planned in a bounded number of rounds", () => {
    // each round can drop only the last push of the chain (the ones before are seen by the next): all k
    // of them took k rounds, each a pass over the log — 40 s for k = 8,000, on the commit path
    const k = 8_000;
    const log: Entry[] = [{ path: ["a", "b"], method: "set", value: [] }];
    for (let index = 0; index < k; index++) log.push({ path: ["a", "b"], method: "push", value: index });
    log.push({ path: ["a", "b"], method: "set", value: [] });
    const fates = planLogCompaction(log);
    const dropped = fates.filter((fate) => fate === "drop").length;
    expect(dropped).toBeGreaterThan(0);
    expect(dropped).toBeLessThanOrEqual(compactionRounds(log.length));
    expect(fold(compact(log))).toEqual(fold(log));
  });

  it("a prefix compacted on its own keeps the fold of the prefix and what follows it", () => {
    fc.assert(
      fc.property(operations, fc.nat(), (ops, cut) => {
        const log = logOf(ops);
        const at = log.length === 0 ? 0 : cut % (log.length + 1);
        const mixed = [...compact(log.slice(0, at)), ...log.slice(at)];
        expect(fold(mixed)).toEqual(fold(log));
      }),
      { numRuns: 1000, seed: 20240601 },
    );
  });

  it("drops what a later write or removal of a top-level key replaced and removals of nothing; stands in deeper", () => {
    const log: Entry[] = [
      { path: ["latest"], method: "set", value: "v1".repeat(100) },
      { path: ["latest"], method: "set", value: "v2" },
      { path: ["user", "profile"], method: "set", value: { name: "Ada" } },
      { path: ["user", "profile"], method: "set", value: { name: "Grace" } },
      { path: ["log"], method: "push", value: "a" },
      { path: ["log"], method: "push", value: "b" },
      { path: ["gone"], method: "set", value: 1 },
      { op: "unset", path: ["gone"], method: "set", value: null },
      { path: ["list"], method: "set", value: [1, 2] },
      { path: ["list", 2], method: "set", value: 3 },
      { path: ["list"], method: "set", value: [] },
    ];
    expect(planLogCompaction(log)).toEqual([
      "drop",
      "keep",
      "standIn",
      "keep",
      "keep",
      "keep",
      "drop",
      "drop",
      "drop",
      "drop",
      "keep",
    ]);
    expect([standIn({ a: 1 }), standIn([1]), standIn("text"), standIn(null)]).toEqual([{}, [], null, null]);
  });

  it("keeps a removal of what a write left in the log wrote", () => {
    const log: Entry[] = [
      { path: ["o", "a"], method: "set", value: 1 },
      { path: ["o", "b"], method: "set", value: 2 },
      { op: "unset", path: ["o", "a"], method: "set", value: null },
      { op: "unset", path: ["o", "c"], method: "set", value: null },
    ];
    expect(planLogCompaction(log)).toEqual(["standIn", "keep", "keep", "drop"]);
    expect(fold(compact(log))).toEqual({ o: { b: 2 } });
  });

  it("keeps a deep value a later write walks into before its cover replaces it", () => {
    const log: Entry[] = [
      { path: ["o", "l"], method: "set", value: [1, 2] },
      { path: ["o", "l", 2], method: "set", value: 3 },
      { path: ["o", "l"], method: "set", value: [] },
    ];
    expect(planLogCompaction(log)).toEqual(["keep", "standIn", "keep"]);
    expect(fold(compact(log))).toEqual(fold(log));
  });

  it("overwrites of one nested path keep the first write's stand-in and the last value, whatever comes between", () => {
    const log: Entry[] = [
      { path: ["latest", "msg"], method: "set", value: "m0" },
      { path: ["count"], method: "set", value: 0 },
      { path: ["latest", "msg"], method: "set", value: "m1" },
      { path: ["latest", "other"], method: "set", value: 1 },
      { path: ["latest", "msg"], method: "set", value: "m2" },
      { path: ["latest", "msg"], method: "set", value: "m3" },
    ];
    expect(planLogCompaction(log)).toEqual(["standIn", "keep", "drop", "keep", "drop", "keep"]);
    expect(fold(compact(log))).toEqual(fold(log));
    // a write above the path since the first one: the next one stands in again (its path may be gone)
    const above: Entry[] = [
      { path: ["o", "a", "b"], method: "set", value: 1 },
      { path: ["o", "a"], method: "assign", value: { c: 1 } },
      { path: ["o", "a", "b"], method: "set", value: 2 },
      { path: ["o", "a", "b"], method: "set", value: 3 },
    ];
    expect(planLogCompaction(above)).toEqual(["standIn", "keep", "standIn", "keep"]);
  });

  it("a path overwritten alternately with a path below it keeps its first and last cycles only", () => {
    // `set a.b.c` walks into each value of `a.b`, so each used to stay whole: one copy per cycle
    const log: Entry[] = [];
    for (let n = 0; n < 3; n++)
      log.push(
        { path: ["a", "b"], method: "set", value: { n, text: "t".repeat(50) } },
        { path: ["a", "b", "c"], method: "set", value: n },
      );
    expect(planLogCompaction(log)).toEqual(["keep", "standIn", "drop", "drop", "keep", "keep"]);
    expect(fold(compact(log))).toEqual(fold(log));
  });

  it("a nested key written and removed again and again keeps its last write only, or its first cycle too", () => {
    const unset = (...path: Path): Entry => ({ op: "unset", path, method: "set", value: null });
    const set = (...path: Path): Entry => ({ path, method: "set", value: { big: "t".repeat(50) } });
    const cycles = (...path: Path): Entry[] => [set(...path), unset(...path), set(...path), unset(...path)];
    // beside a sibling that stays: `x` only holds what writes below it made, so `x.y` is absent each time
    const sibling = [set("x", "z"), ...cycles("x", "y"), set("x", "y")];
    expect(planLogCompaction(sibling)).toEqual(["keep", "drop", "drop", "drop", "drop", "keep"]);
    expect(fold(compact(sibling))).toEqual(fold(sibling));
    // a new key each time, the same
    const keys = [
      set("x", "z"),
      set("x", "t1"),
      unset("x", "t1"),
      set("x", "t2"),
      unset("x", "t2"),
      set("x", "t3"),
    ];
    expect(planLogCompaction(keys)).toEqual(["keep", "drop", "drop", "drop", "drop", "keep"]);
    expect(fold(compact(keys))).toEqual(fold(keys));
    // `x` written whole may have held `x.y`: the first cycle stays, then its removal shows the key absent
    const whole = [set("x"), ...cycles("x", "y"), set("x", "y")];
    expect(planLogCompaction(whole)).toEqual(["keep", "standIn", "keep", "drop", "drop", "keep"]);
    expect(fold(compact(whole))).toEqual(fold(whole));
    // an eviction that also removes the parent the write made: the parent is the key created and removed
    const parent = [
      ...[set("p", "z"), set("p", "x", "y"), unset("p", "x", "y"), unset("p", "x")],
      ...[set("p", "x", "y"), unset("p", "x", "y"), unset("p", "x"), set("p", "x", "y")],
    ];
    expect(planLogCompaction(parent)).toEqual([
      "keep",
      "drop",
      "drop",
      "drop",
      "drop",
      "drop",
      "drop",
      "keep",
    ]);
    expect(fold(compact(parent))).toEqual(fold(parent));
  });

  it("keeps a write and the removal after it when the log does not show the key absent before it", () => {
    const unset = (...path: Path): Entry => ({ op: "unset", path, method: "set", value: null });
    const set = (...path: Path): Entry => ({ path, method: "set", value: 1 });
    // the parent written whole may have held the key
    const whole: Entry[] = [{ path: ["x"], method: "set", value: { y: 1 } }, set("x", "y"), unset("x", "y")];
    expect(planLogCompaction(whole)).toEqual(["keep", "standIn", "keep"]);
    expect(fold(compact(whole))).toEqual({ x: {} });
    // an array index: removing nothing past the end, then appending and removing, leaves a hole
    const array: Entry[] = [
      { path: ["o", "l"], method: "set", value: [1, 2] },
      ...[unset("o", "l", 2), set("o", "l", 2), unset("o", "l", 2), set("o", "k")],
    ];
    expect(planLogCompaction(array)).toEqual(["keep", "keep", "standIn", "keep", "keep"]);
    expect(fold(compact(array))).toEqual({ o: { l: [1, 2, null], k: 1 } });
    // the parent's last removal was `o["0"]`, which removes nothing from an array: `o[0]` kept `y`
    const kept: Entry[] = [
      { path: ["o"], method: "set", value: [] },
      { path: ["o", 0], method: "set", value: { y: 1 } },
      unset("o", "0"),
      ...[set("o", 0, "z"), set("o", 0, "y"), unset("o", 0, "y")],
    ];
    // a log with such a removal is kept whole (the stores never log a removal of nothing)
    expect(planLogCompaction(kept).every((fate) => fate === "keep")).toBe(true);
    expect(fold(compact(kept))).toEqual({ o: [{ z: 1 }] });
    // `b["0"].a` and `b["0"]` remove nothing from the array b: the write of b[0].a is not undone by them
    const indexText: Entry[] = [
      { path: ["b", 0, "0"], method: "set", value: null },
      { path: ["b", 0, "a"], method: "set", value: null },
      unset("b", "0", "a"),
      unset("b", "0"),
    ];
    expect(fold(compact(indexText))).toEqual({ b: [{ "0": null, a: null }] });
    expect(fold(compact(indexText))).toEqual(fold(indexText));
    // property-test seed 47: such a removal between two writes of b[0].b brought the key back
    const between: Entry[] = [
      { path: ["b", 0, "b"], method: "set", value: "x" },
      unset("b", "0", "b"),
      { path: ["b", 0, "b"], method: "set", value: 1 },
      unset("b", 0, "b"),
    ];
    expect(fold(compact(between))).toEqual({ b: [{}] });
    // an entry above the key between the write and the removal (the merge may have added it)
    const merged: Entry[] = [
      ...[set("x", "z"), set("x", "y"), unset("x", "y"), set("x", "y")],
      { path: ["x"], method: "merge", value: { y: 2 } },
      unset("x", "y"),
    ];
    expect(planLogCompaction(merged)).toEqual(["keep", "drop", "drop", "standIn", "keep", "keep"]);
  });

  it("plans again after dropping removals of nothing, so that compacting the result changes nothing", () => {
    const unset = (...path: Path): Entry => ({ op: "unset", path, method: "set", value: null });
    const write = (value: JsonValue, ...path: Path): Entry => ({ path, method: "set", value });
    // a property-test counterexample (seed 23): the idle removals dropped in a round showed keys absent
    const log: Entry[] = [
      ...[unset("a", "0", 2), unset("a", "0"), unset("a", "0", 2), unset("a", "0")],
      ...[write("x", "a", "0", "a"), write(0, "a", 0, "b"), unset("a", 0, "b"), unset("a", 0)],
      ...[write("x", "a", 0, "b"), unset("a", 0, "b"), unset("a", 0)],
    ];
    const once = compact(log);
    expect(fold(once)).toEqual(fold(log));
    expect(compact(once)).toEqual(once);
  });

  it("keeps the stand-in of an overwritten value that a later entry at its path combines with", () => {
    const log: Entry[] = [
      { path: ["o", "l"], method: "set", value: "text" },
      { path: ["o", "l"], method: "set", value: [1] },
      { path: ["o", "l"], method: "push", value: 2 },
      { path: ["o", "l"], method: "set", value: 5 },
    ];
    // the push goes (its path holds a value, nothing sees what it made), and then the array it pushed to
    expect(planLogCompaction(log)).toEqual(["standIn", "drop", "drop", "keep"]);
    expect(fold(compact(log))).toEqual(fold(log));
    expect(compact(compact(log))).toEqual(compact(log));
    // a deep merge above the path combines with the value: the write it merges into keeps its place
    const merged: Entry[] = [
      { path: ["o", "a", "b"], method: "set", value: "text" },
      { path: ["o", "a", "b"], method: "set", value: { x: 1 } },
      { path: ["o", "a"], method: "merge", value: { b: { y: 2 }, c: 3 } },
      { path: ["o", "a", "b"], method: "set", value: 5 },
    ];
    expect(planLogCompaction(merged)).toEqual(["standIn", "standIn", "keep", "keep"]);
    expect(fold(compact(merged))).toEqual(fold(merged));
  });
});
