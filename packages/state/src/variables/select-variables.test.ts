import type { Path, Reference } from "@obelisk/core";
import { DEFAULT_KINDS, formatReference, parseReference } from "@obelisk/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { VariableMeta } from "../store-types.js";
import { ANY_DEPTH } from "./parse-stored-reference.js";
import { selectVariables } from "./select-variables.js";

const referenceOf = (kind: string, path: Path): Reference => {
  const parsed = parseReference(formatReference(kind, path), DEFAULT_KINDS, ANY_DEPTH);
  if (!parsed.ok) throw new Error(parsed.issue.message);
  return parsed.value;
};

/** Only the reference matters to the selection. */
const variable = (reference: string): VariableMeta => ({ reference }) as VariableMeta;

/** The selection as the pairwise definition says it (every variable against every reference). */
function pairwise(all: readonly VariableMeta[], wanted: readonly Reference[]) {
  const nested = (a: Path, b: Path) => {
    for (let at = 0; at < Math.min(a.length, b.length); at++)
      if (String(a[at]) !== String(b[at])) return false;
    return true;
  };
  const found = new Set<number>();
  const chosen = all.filter((meta) => {
    const own = parseReference(meta.reference, DEFAULT_KINDS, ANY_DEPTH);
    if (!own.ok) return false;
    let selected = false;
    wanted.forEach((ref, at) => {
      if (ref.kind !== own.value.kind || !nested(ref.path, own.value.path)) return;
      found.add(at);
      selected = true;
    });
    return selected;
  });
  const notFound = wanted.filter((_, at) => !found.has(at)).map((ref) => ref.text);
  return { chosen, notFound };
}

const segment = fc.oneof(fc.constantFrom("a", "b", "0", "x y"), fc.constantFrom(0, 1));
const target = (minDepth: number) =>
  fc.record({
    kind: fc.constantFrom("state", "calls"),
    path: fc.array(segment, { minLength: minDepth, maxLength: 4 }),
  });
/** A call output's path starts with its id (a name). */
const fixed = ({ kind, path }: { kind: string; path: Path }): { kind: string; path: Path } =>
  kind === "calls" ? { kind, path: ["c", ...path] } : { kind, path };

describe("selectVariables", () => {
  it("selects what the pairwise definition selects: at, under and holding each reference, not-found in order", () => {
    fc.assert(
      fc.property(
        fc.array(target(1), { maxLength: 30 }),
        fc.array(target(0), { maxLength: 30 }),
        (vars, refs) => {
          const texts = [...new Set(vars.map((v) => referenceOf(fixed(v).kind, fixed(v).path).text))];
          const all = texts.map(variable);
          const wanted = refs.map((ref) => referenceOf(fixed(ref).kind, fixed(ref).path));
          const { chosen, notFound } = selectVariables(all, wanted);
          const expected = pairwise(all, wanted);
          expect(chosen).toEqual(expected.chosen);
          expect(notFound).toEqual(expected.notFound);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("reads each wanted reference's path once, not once per variable (no variables × references work)", () => {
    let reads = 0;
    /** A path that counts the reads of its segments. */
    const counted = (path: Path): Path =>
      new Proxy(path as unknown[], {
        get(array, key, receiver) {
          if (typeof key === "string" && /^\d+$/.test(key)) reads++;
          return Reflect.get(array, key, receiver);
        },
      }) as Path;
    const all = Array.from({ length: 400 }, (_, at) => variable(`†state.list.v${at}`));
    const wanted = Array.from({ length: 400 }, (_, at) => {
      const ref = referenceOf("state", ["list", `v${at * 2}`]);
      return { ...ref, path: counted(ref.path) };
    });
    const { chosen, notFound } = selectVariables(all, wanted);
    expect(chosen).toHaveLength(200);
    expect(notFound).toHaveLength(200);
    expect(notFound[0]).toBe("†state.list.v400");
    // 2 segments per reference: 800 reads when indexed once; 400 × 400 pairs read at least 160,000
    expect(reads).toBeLessThanOrEqual(2 * 400 * 2);
  });

  it("keeps every duplicate of a reference, found or not, and selects a variable once for several references", () => {
    const all = ["†state.a.b", "†state.a", "†calls.c1", "†state.z[0]"].map(variable);
    const wanted = [
      "†state.a",
      "†state.a.b.c",
      "†state.a",
      "†state.q",
      "†state.q",
      "†calls",
      "†state.z.0",
    ].map((text) => {
      const parsed = parseReference(text, DEFAULT_KINDS, ANY_DEPTH);
      if (!parsed.ok) throw new Error(text);
      return parsed.value;
    });
    const { chosen, notFound } = selectVariables(all, wanted);
    expect(chosen.map((meta) => meta.reference)).toEqual([
      "†state.a.b",
      "†state.a",
      "†calls.c1",
      "†state.z[0]",
    ]);
    expect(notFound).toEqual(["†state.q", "†state.q"]);
  });
});
