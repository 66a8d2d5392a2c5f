import { describe, expect, it } from "vitest";
import { TopologicalOrder } from "./topological-order.js";

/** Inserts positions 0… as `place` says (after which position, −1: first) and returns the list in order. */
function build(
  n: number,
  place: (position: number, list: number[]) => number,
): {
  readonly order: TopologicalOrder;
  readonly list: number[];
} {
  const order = new TopologicalOrder();
  const list: number[] = [];
  for (let position = 0; position < n; position++) {
    const after = place(position, list);
    order.insertAfter(position, after);
    list.splice(after === -1 ? 0 : list.indexOf(after) + 1, 0, position);
  }
  return { order, list };
}

const increasing = (order: TopologicalOrder, list: readonly number[]): boolean =>
  list.every((position, i) => i === 0 || order.label(position) > order.label(list[i - 1] as number));

describe("topological order labels", () => {
  // 60 insertions into one gap exhaust a 2^52 label space without relabelling; 20,000 need it hundreds of
  // times, and each relabelling must stay local (amortised O(log n) labels per insertion)
  it.each([
    ["always right after the first", (position: number) => (position === 0 ? -1 : 0)],
    ["always first", () => -1],
    ["always right after the latest", (position: number) => position - 1],
    [
      "in the middle",
      (_position: number, list: number[]) => (list.length === 0 ? -1 : (list[list.length >> 1] as number)),
    ],
  ])("20,000 insertions %s keep the labels increasing, with few relabelled", (_name, place) => {
    const { order, list } = build(20_000, place);
    expect(increasing(order, list)).toBe(true);
    expect(order.relabelled).toBeLessThanOrEqual(20_000 * 40);
  });

  it("moving calls after another keeps their order and everyone else's", () => {
    const { order, list } = build(1_000, (position) => position - 1);
    const moved = [10, 11, 500, 998];
    order.moveAfter(moved, 999);
    const expected = [...list.filter((p) => !moved.includes(p)), ...moved];
    expect(increasing(order, expected)).toBe(true);
    order.moveAfter([999], order.previous(0));
    expect(increasing(order, [999, ...expected.filter((p) => p !== 999)])).toBe(true);
  });
});
