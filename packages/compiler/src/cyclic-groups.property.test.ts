import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compile } from "./compile.js";
import { createToolRegistry } from "./tool-registry.js";

const registry = createToolRegistry([{ name: "t", run: () => 1 }]);

/** Paths that overlap in every way: ancestors, descendants, siblings. */
const PATHS = [["a"], ["a", "x"], ["a", "y"], ["a", "x", "z"], ["b"], ["b", "x"]] as const;
const text = (path: readonly string[]) => `†state.${path.join(".")}`;
const overlaps = (a: readonly string[], b: readonly string[]) =>
  a.slice(0, Math.min(a.length, b.length)).every((segment, i) => segment === b[i]);

const callArb = fc.record({
  reads: fc.uniqueArray(fc.integer({ min: 0, max: PATHS.length - 1 }), { maxLength: 3 }),
  // each call writes its own leaf below one of the paths: no two calls write the same path
  writesBelow: fc.integer({ min: 0, max: PATHS.length - 1 }),
});

/**
 * Calls that read paths other calls write below, often their own (decision 0042: the second and later
 * readers of a text that write an overlapping path share one group listing themselves). Whatever the
 * sharing, the exported graph must hold exactly the writer → reader pairs whose paths overlap, without
 * self-loops, and there must be one CYCLE per strongly connected set of calls, named from its first call.
 */
describe("calls reading paths they or others write below: the graph is the exact dependency relation", () => {
  it("edges are the overlapping pairs; CYCLEs are the strongly connected sets", () => {
    fc.assert(
      fc.property(fc.array(callArb, { minLength: 1, maxLength: 10 }), (specs) => {
        const targets = specs.map((spec, i) => [...(PATHS[spec.writesBelow] as readonly string[]), `w${i}`]);
        const plan = specs.map((spec, i) => {
          const call: Record<string, string> = {
            _tool: "t",
            _id: `c${i}`,
            _outputPath: text(targets[i] ?? []),
          };
          spec.reads.forEach((p, k) => {
            call[`r${k}`] = text(PATHS[p] as readonly string[]);
          });
          return call;
        });
        const n = specs.length;
        const edge = (w: number, r: number) =>
          w !== r &&
          (specs[r]?.reads ?? []).some((p) => overlaps(PATHS[p] as readonly string[], targets[w] ?? []));
        const compiled = compile({ plan }, registry);
        const expected = new Set<string>();
        for (let w = 0; w < n; w++) for (let r = 0; r < n; r++) if (edge(w, r)) expected.add(`c${w}->c${r}`);
        const actual = new Set(compiled.graph.mapEdges((_e, _a, source, target) => `${source}->${target}`));
        expect(actual).toEqual(expected);
        // reachability, then the first call of every strongly connected set of more than one call
        const reach = Array.from({ length: n }, (_, w) => Array.from({ length: n }, (_, r) => edge(w, r)));
        for (let k = 0; k < n; k++)
          for (let i = 0; i < n; i++)
            for (let j = 0; j < n; j++) if (reach[i]?.[k] && reach[k]?.[j]) (reach[i] as boolean[])[j] = true;
        const firsts = new Set<string>();
        for (let i = 0; i < n; i++) {
          const members = [...Array(n).keys()].filter((j) => j === i || (reach[i]?.[j] && reach[j]?.[i]));
          if (members.length > 1) firsts.add(`c${Math.min(...members)}`);
        }
        const cycles = compiled.diagnostics.filter((d) => d.code === "CYCLE");
        expect(new Set(cycles.map((d) => d.related?.[0]))).toEqual(firsts);
        expect(cycles).toHaveLength(firsts.size);
        // each reported cycle is a real closed path of the relation, with no call twice
        for (const cycle of cycles) {
          const path = (cycle.related ?? []).map((id) => Number(id.slice(1)));
          expect(new Set(path).size).toBe(path.length);
          path.forEach((from, i) => {
            expect(edge(from, path[(i + 1) % path.length] as number)).toBe(true);
          });
        }
      }),
      { numRuns: 300 },
    );
  });
});
