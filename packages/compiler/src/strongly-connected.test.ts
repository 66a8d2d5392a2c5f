import { describe, expect, it } from "vitest";
import { stronglyConnected } from "./strongly-connected.js";

describe("stronglyConnected", () => {
  it("gives every component, each after the components it reaches", () => {
    // 0 → 1 ⇄ 2 → 3 (3 → 3), 4 alone
    const components = stronglyConnected([[1], [2], [1, 3], [3], []]);
    expect(components.map((component) => [...component].sort())).toEqual([[3], [1, 2], [0], [4]]);
  });

  it("walks a long ring without recursion", () => {
    const n = 100_000;
    const ring = Array.from({ length: n }, (_, v) => [(v + 1) % n]);
    const [component] = stronglyConnected(ring);
    expect(component).toHaveLength(n);
  });
});
