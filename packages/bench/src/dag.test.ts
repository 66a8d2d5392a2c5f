import { describe, expect, it } from "vitest";
import { criticalPath, DAG_SHAPES, generateDag, LAYER_WIDTH, levelsOf, sinksOf } from "./dag.js";

describe("generateDag", () => {
  it.each(DAG_SHAPES)("%s: every dependency is an earlier node, distinct and sorted", (shape) => {
    const dag = generateDag(shape, 500, 3);
    expect(dag.size).toBe(500);
    expect(dag.deps).toHaveLength(500);
    dag.deps.forEach((deps, i) => {
      for (const j of deps) expect(j).toBeLessThan(i);
      expect(new Set(deps).size).toBe(deps.length);
      expect([...deps].sort((a, b) => a - b)).toEqual(deps);
    });
  });

  it.each(DAG_SHAPES)("%s: the same seed gives the same DAG, another seed may not", (shape) => {
    expect(generateDag(shape, 300, 9)).toEqual(generateDag(shape, 300, 9));
  });

  it("chain: each node reads the one before", () => {
    expect(generateDag("chain", 4).deps).toEqual([[], [0], [1], [2]]);
  });

  it("wide: one root, size - 2 leaves, one join reading every leaf", () => {
    const dag = generateDag("wide", 6);
    expect(dag.deps).toEqual([[], [0], [0], [0], [0], [1, 2, 3, 4]]);
    expect(sinksOf(dag)).toEqual([5]);
  });

  it("layered: width 50, 1–3 dependencies in the previous layer", () => {
    const dag = generateDag("layered", 400, 5);
    dag.deps.forEach((deps, i) => {
      const layer = Math.floor(i / LAYER_WIDTH);
      if (layer === 0) expect(deps).toEqual([]);
      else {
        expect(deps.length).toBeGreaterThanOrEqual(1);
        expect(deps.length).toBeLessThanOrEqual(3);
        for (const j of deps) expect(Math.floor(j / LAYER_WIDTH)).toBe(layer - 1);
      }
    });
    expect(levelsOf(dag)).toHaveLength(8);
  });

  it("sparse: one root, then 1–3 dependencies per node", () => {
    const dag = generateDag("sparse", 1000, 11);
    expect(dag.deps[0]).toEqual([]);
    for (const deps of dag.deps.slice(1)) {
      expect(deps.length).toBeGreaterThanOrEqual(1);
      expect(deps.length).toBeLessThanOrEqual(3);
    }
  });

  it("rejects sizes below 3", () => {
    expect(() => generateDag("chain", 2)).toThrow(RangeError);
    expect(() => generateDag("sparse", 10.5)).toThrow(RangeError);
  });
});

describe("criticalPath and levelsOf", () => {
  it("takes the longest weighted path, not the deepest one", () => {
    const dag = { shape: "sparse" as const, size: 4, deps: [[], [0], [1], [0]] };
    expect(criticalPath(dag, [1, 1, 1, 10])).toBe(11);
    expect(criticalPath(dag, [1, 5, 5, 1])).toBe(11);
    expect(levelsOf(dag)).toEqual([[0], [1, 3], [2]]);
  });
});
