import type { Path, PathSegment } from "@obelisk/core";
import fc from "fast-check";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ABSENT, PathTrie } from "./path-trie.js";

// few segments and short paths: the random changes meet on the same paths and nodes
const SEGMENTS: readonly PathSegment[] = ["a", 0];

/** Every path of up to two segments of {@link SEGMENTS}. */
const UNIVERSE: Path[] = [[]];
for (let length = 1; length <= 2; length++)
  for (const path of UNIVERSE.filter((p) => p.length === length - 1))
    for (const segment of SEGMENTS) UNIVERSE.push([...path, segment]);

const key = (path: Path): string => JSON.stringify(path);
const startsWith = (path: Path, prefix: Path): boolean => prefix.every((segment, at) => path[at] === segment);

/** What `find` answers for `path` when `held` maps each recorded path's key to its reference. */
function expectedFind(held: Map<string, { path: Path; reference: string }>, path: Path) {
  const entries = [...held.values()];
  if (entries.some((e) => e.path.length <= path.length && startsWith(path, e.path)))
    return held.get(key(path))?.reference;
  // nothing at or above: ABSENT unless something is recorded below
  return entries.some((e) => e.path.length > path.length && startsWith(e.path, path)) ? undefined : ABSENT;
}

const pathArb = fc.array(fc.constantFrom(...SEGMENTS), { minLength: 1, maxLength: 2 });
const opArb = fc.oneof(
  fc.record({ op: fc.constant("find-set" as const), path: pathArb, copy: fc.boolean() }),
  fc.record({ op: fc.constant("find" as const), path: pathArb }),
  fc.record({ op: fc.constant("set" as const), path: pathArb }),
  fc.record({ op: fc.constant("delete" as const), path: pathArb }),
  fc.record({ op: fc.constant("takeAlong" as const), path: pathArb }),
  fc.record({ op: fc.constant("clear" as const) }),
);

describe("PathTrie", () => {
  afterEach(() => vi.restoreAllMocks());

  it("sets a new variable where find missed without looking its segments up again", () => {
    const trie = new PathTrie();
    for (let at = 0; at < 100; at++) trie.set([`k${at}`], `†state.k${at}`);
    trie.set(["doc", "x"], "†state.doc.x");
    for (const path of [["new"], ["doc", "y", 2]] as Path[]) {
      expect(trie.find(path)).toBe(ABSENT);
      const lookups = vi.spyOn(Map.prototype, "get");
      // a copy of the path (the store keeps a frozen copy of the write's path)
      trie.set([...path], "†state.new");
      expect(lookups).not.toHaveBeenCalled();
      lookups.mockRestore();
      expect(trie.referenceAt(path)).toBe("†state.new");
    }
    expect(trie.referenceAt(["doc", "x"])).toBe("†state.doc.x");
    expect(trie.descendants(["doc"]).slice().sort()).toEqual(["†state.doc.x", "†state.new"]);
  });

  it("forgets a miss once anything changed, so a set after a change finds its nodes again", () => {
    const changes: [string, (trie: PathTrie) => void][] = [
      ["delete", (trie) => trie.delete(["a", 0])],
      ["takeAlong", (trie) => trie.takeAlong(["a", 0])],
      ["clear", (trie) => trie.clear()],
    ];
    for (const [name, change] of changes) {
      const trie = new PathTrie();
      trie.set(["a", 0], "†state.a[0]");
      // the walk stops at `a`, which lacks "b"; then the change prunes `a` itself
      expect(trie.find(["a", "b"])).toBe(ABSENT);
      change(trie);
      trie.set(["a", "b"], "†state.a.b");
      expect([name, trie.referenceAt(["a", "b"])]).toEqual([name, "†state.a.b"]);
      expect([name, trie.descendants(["a"])]).toEqual([name, ["†state.a.b"]]);
    }
    // a set between the miss and another set at the same child: that child is there now
    const trie = new PathTrie();
    expect(trie.find(["x", "y"])).toBe(ABSENT);
    trie.set(["x", "z"], "†state.x.z");
    trie.set(["x", "y"], "†state.x.y");
    expect(trie.descendants(["x"]).slice().sort()).toEqual(["†state.x.y", "†state.x.z"]);
  });

  it("answers as a plain list of recorded paths after any sequence of changes", () => {
    fc.assert(
      fc.property(fc.array(opArb, { maxLength: 30 }), (ops) => {
        const trie = new PathTrie();
        const held = new Map<string, { path: Path; reference: string }>();
        let n = 0;
        for (const step of ops) {
          const reference = `r${n++}`;
          if (step.op === "find-set") {
            expect(trie.find(step.path)).toBe(expectedFind(held, step.path));
            const path = step.copy ? [...step.path] : step.path;
            trie.set(path, reference);
            held.set(key(path), { path, reference });
          } else if (step.op === "find") expect(trie.find(step.path)).toBe(expectedFind(held, step.path));
          else if (step.op === "set") {
            trie.set(step.path, reference);
            held.set(key(step.path), { path: step.path, reference });
          } else if (step.op === "delete") {
            trie.delete(step.path);
            held.delete(key(step.path));
          } else if (step.op === "takeAlong") {
            const taken = trie.takeAlong(step.path);
            const expected = [...held.values()]
              .filter((e) => startsWith(step.path, e.path))
              .sort((x, y) => x.path.length - y.path.length)
              .map((e) => e.reference);
            expect(taken).toEqual(expected);
            for (const e of [...held.values()]) if (startsWith(step.path, e.path)) held.delete(key(e.path));
          } else {
            trie.clear();
            held.clear();
          }
        }
        for (const path of UNIVERSE) {
          expect(trie.referenceAt(path)).toBe(held.get(key(path))?.reference);
          if (path.length > 0) expect(trie.find(path)).toBe(expectedFind(held, path));
          const below = [...held.values()]
            .filter((e) => e.path.length > path.length && startsWith(e.path, path))
            .map((e) => e.reference);
          expect(trie.descendants(path).slice().sort()).toEqual(below.sort());
        }
      }),
      { numRuns: 200 },
    );
  }, 30_000);
});
