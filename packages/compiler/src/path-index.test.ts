import { describe, expect, it } from "vitest";
import { PathIndex } from "./path-index.js";
import { addAtChild, childFor, childOf, isNode, TrieNode } from "./path-trie.js";

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

  it("a path holding one entry and nothing below is that entry, not a node, until a second entry or a child comes", () => {
    const flag = (entry: string): boolean => entry.startsWith("set");
    const root = new TrieNode<string>();
    addAtChild(root, "a", "set-a", flag);
    expect(childOf(root, "a")).toBe("set-a");
    addAtChild(root, "b", "push-b", flag);
    expect(childOf(root, "b")).toBe("push-b");
    addAtChild(root, "a", "push-a", flag);
    const a = childOf(root, "a");
    expect(a instanceof TrieNode && [a.first, a.entries, a.firstFlagged]).toEqual([
      "set-a",
      ["push-a"],
      "set-a",
    ]);
    const b = childFor(root, "b", flag);
    expect([isNode(b), b.first, b.firstFlagged, childOf(root, "b") === b]).toEqual([
      true,
      "push-b",
      undefined,
      true,
    ]);
  });

  it("answers every query at a leaf as at a node holding one entry", () => {
    const flag = (entry: { id: string }): boolean => entry.id.startsWith("set");
    const rank = (entry: { rank: number }): number => entry.rank;
    const index = new PathIndex<{ id: string; rank: number }>(flag);
    index.add("state", ["a", "x"], { id: "set-ax", rank: 2 });
    index.add("state", ["a", "y"], { id: "push-ay", rank: 1 });
    index.add("state", ["l", 3], { id: "push-l3", rank: 4 });
    expect(index.earliestCandidate("state", ["a", "x"], true, rank)?.id).toBe("set-ax");
    expect(index.earliestCandidate("state", ["a", "y"], true, rank)).toBeUndefined();
    expect(index.earliestCandidate("state", ["a", "y"], false, rank)?.id).toBe("push-ay");
    expect(index.earliestCandidate("state", ["a", "x", "deep"], true, rank)?.id).toBe("set-ax");
    expect(index.hasAboveOrFlaggedAt("state", ["a", "x"])).toBe(true);
    expect(index.hasAboveOrFlaggedAt("state", ["a", "y"])).toBe(false);
    expect(index.hasAboveOrFlaggedAt("state", ["a", "y", "z"])).toBe(true);
    expect(index.hasAtOrAbove("state", ["a", "y"])).toBe(true);
    expect(index.hasAtOrAbove("state", ["a"])).toBe(false);
    expect(index.hasOverlap("state", ["l", -1])).toBe(true);
    expect(index.hasOverlap("state", ["a", "x", "q"])).toBe(true);
    expect(index.hasOverlap("state", ["a", "z"])).toBe(false);
    const ids = (path: (string | number)[]): string[] =>
      index.collectOverlapping("state", path, []).map((entry) => entry.id);
    expect(ids(["a"])).toEqual(["set-ax", "push-ay"]);
    expect(ids(["l", -1, "k"])).toEqual(["push-l3"]);
    expect(ids(["a", "y", "k"])).toEqual(["push-ay"]);
    const keys = new Set<string>();
    index.childKeys("state", ["a"], keys, 10);
    expect([...keys]).toEqual(["x", "y"]);
    expect(index.firstBelow("state", ["a", "x"])).toBeUndefined();
    expect(index.firstBelow("state", ["a", "x", "q"])).toBeUndefined();
    expect(index.firstBelow("state", ["a"])?.id).toBe("set-ax");
  });
});
