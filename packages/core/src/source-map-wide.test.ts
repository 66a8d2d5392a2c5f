import { type Node, parseTree } from "jsonc-parser";
import { describe, expect, it } from "vitest";
import { createSourceMap } from "./source-map.js";

/** Counts the reads of `node`'s members (by index) from now on. */
function countMemberReads(node: Node): { reads: number } {
  const counter = { reads: 0 };
  const children = node.children ?? [];
  const counted = new Proxy(children, {
    get(target, property, receiver) {
      if (typeof property === "string" && /^\d+$/.test(property)) counter.reads++;
      return Reflect.get(target, property, receiver);
    },
  });
  Object.defineProperty(node, "children", { value: counted });
  return counter;
}

describe("SourceMap over an object of many members", () => {
  const n = 2_000;
  const members = Array.from({ length: n }, (_, i) => `"k${i}": ${i}`);
  const text = `{ "wide": {\n${members.join(",\n")},\n"k7": "again" } }`;

  it("locates each member without a scan of the object per pointer (the last of a repeated key wins)", () => {
    const root = parseTree(text) as Node;
    const wide = root.children?.[0]?.children?.[1] as Node;
    const counter = countMemberReads(wide);
    const sourceMap = createSourceMap(text, root);
    for (let i = 0; i < n; i++)
      expect(sourceMap.positionOf(`/wide/k${i}`)?.line).toBe(i === 7 ? n + 2 : i + 2);
    expect(sourceMap.positionOf("/wide/absent")).toBeUndefined();
    // a scan per pointer: ~4,000,000 reads
    expect(counter.reads).toBeLessThan(3 * n);
  });
});
