import { describe, expect, it } from "vitest";
import { PathIndex } from "./path-index.js";

describe("PathIndex", () => {
  it("finds overlaps through nodes with one child and after a second child is added (same order)", () => {
    const index = new PathIndex<string>();
    index.add("state", ["a", "b"], "ab");
    expect(index.collectOverlapping("state", ["a"], [])).toEqual(["ab"]);
    expect(index.collectOverlapping("state", ["a", "c"], [])).toEqual([]);
    index.add("state", ["a", "c", 0], "ac0");
    index.add("state", ["a"], "a");
    expect(index.collectOverlapping("state", ["a"], [])).toEqual(["a", "ab", "ac0"]);
    expect(index.collectOverlapping("state", ["a", "c"], [])).toEqual(["a", "ac0"]);
    expect(index.collectOverlapping("state", ["a", "b", "x"], [])).toEqual(["a", "ab"]);
    expect(index.collectOverlapping("input", ["a"], [])).toEqual([]);
    index.add("state", ["a", "c", 1, "z"], "ac1z");
    index.add("state", ["a", "c", 0, "y"], "ac0y");
    expect(index.collectOverlapping("state", ["a"], [])).toEqual(["a", "ab", "ac1z", "ac0", "ac0y"]);
  });

  it("a negative index (reads) overlaps any index, whether the node has one child or several", () => {
    const index = new PathIndex<string>();
    index.add("state", ["l", 2], "l2");
    expect(index.collectOverlapping("state", ["l", -1], [])).toEqual(["l2"]);
    expect(index.hasOverlap("state", ["l", -1])).toBe(true);
    expect(index.hasOverlap("state", ["l", 3])).toBe(false);
    index.add("state", ["l", 5, "x"], "l5x");
    expect(index.collectOverlapping("state", ["l", -1, "x"], [])).toEqual(["l2", "l5x"]);
    expect(index.hasOverlap("state", ["l", 4])).toBe(false);
    expect(index.hasOverlap("state", ["l", 5])).toBe(true);
  });

  it("a stored negative index overlaps any index in a query, one child or several", () => {
    const index = new PathIndex<string>();
    index.add("state", ["l", -1], "any");
    expect(index.collectOverlapping("state", ["l", 7], [])).toEqual(["any"]);
    expect(index.hasOverlap("state", ["l", 7])).toBe(true);
    index.add("state", ["l", 7], "l7");
    expect(index.collectOverlapping("state", ["l", 7], [])).toEqual(["l7", "any"]);
    expect(index.collectOverlapping("state", ["l", 8], [])).toEqual(["any"]);
  });

  it("earliestCandidate sees ancestors, the equal node and the subtree through inline children", () => {
    const index = new PathIndex<{ id: string; rank: number }>((entry) => entry.id.startsWith("set"));
    const rank = (entry: { rank: number }): number => entry.rank;
    index.add("state", ["a", "b", "c"], { id: "deep", rank: 5 });
    expect(index.earliestCandidate("state", ["a"], false, rank)?.id).toBe("deep");
    index.add("state", ["a", "b"], { id: "push-b", rank: 3 });
    index.add("state", ["a", "b"], { id: "set-b", rank: 4 });
    expect(index.earliestCandidate("state", ["a", "b"], true, rank)?.id).toBe("set-b");
    expect(index.earliestCandidate("state", ["a", "b"], false, rank)?.id).toBe("push-b");
    expect(index.earliestCandidate("state", ["a", "b", "c", "d"], false, rank)?.id).toBe("push-b");
    expect(index.earliestCandidate("state", ["a", "x"], false, rank)).toBeUndefined();
  });
});
