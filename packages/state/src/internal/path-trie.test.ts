import type { Path, PathSegment } from "@obelisk/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ABSENT, PathTrie } from "./path-trie.js";

// Stop 37 keeps a leaf (a variable with nothing below it) as its reference text instead of a node; a leaf
// becomes a node when a path goes below it, and goes back to nothing when deleted or taken along. The trie
// must answer as a plain map of paths does, whatever the order of the operations.

const segment: fc.Arbitrary<PathSegment> = fc.constantFrom<PathSegment>("a", "b", 0, 1, "0");
const path: fc.Arbitrary<Path> = fc.array(segment, { maxLength: 3 });
const operation = fc.oneof(
  fc.record({ op: fc.constant("set" as const), path }),
  fc.record({ op: fc.constant("delete" as const), path }),
  fc.record({ op: fc.constant("takeAlong" as const), path }),
  fc.record({ op: fc.constant("clear" as const), path }),
);

/** The same index as a flat map: key → path and reference (a key tells the index 0 from the key "0"). */
class Model {
  readonly entries = new Map<string, { readonly path: Path; readonly reference: string }>();
  static key = (at: Path) => JSON.stringify(at);
  static isPrefix = (prefix: Path, of: Path) =>
    prefix.length <= of.length && prefix.every((part, index) => part === of[index]);
  referenceAt(at: Path) {
    return this.entries.get(Model.key(at))?.reference;
  }
  ancestors(at: Path) {
    return [...this.entries.values()]
      .filter((e) => e.path.length < at.length && Model.isPrefix(e.path, at))
      .sort((x, y) => x.path.length - y.path.length)
      .map((e) => e.reference);
  }
  descendants(at: Path) {
    return [...this.entries.values()]
      .filter((e) => e.path.length > at.length && Model.isPrefix(at, e.path))
      .map((e) => e.reference);
  }
  takeAlong(at: Path) {
    const taken = [...this.entries.values()].filter((e) => Model.isPrefix(e.path, at));
    for (const e of taken) this.entries.delete(Model.key(e.path));
    return taken.map((e) => e.reference);
  }
}

const sorted = (references: readonly string[]) => [...references].sort();

describe("PathTrie answers as a plain map of paths does", () => {
  it("after any sequence of set, delete, takeAlong and clear, for every path asked", () => {
    fc.assert(
      fc.property(
        fc.array(operation, { maxLength: 30 }),
        fc.array(path, { minLength: 1, maxLength: 8 }),
        (ops, asked) => {
          const trie = new PathTrie();
          const model = new Model();
          for (const { op, path: at } of ops) {
            if (op === "set") {
              const reference = `r${Model.key(at)}`;
              trie.set(at, reference);
              model.entries.set(Model.key(at), { path: at, reference });
            } else if (op === "delete") {
              trie.delete(at);
              model.entries.delete(Model.key(at));
            } else if (op === "takeAlong") {
              expect(sorted(trie.takeAlong(at))).toEqual(sorted(model.takeAlong(at)));
            } else {
              trie.clear();
              model.entries.clear();
            }
            for (const at2 of asked) {
              const reference = model.referenceAt(at2);
              const ancestors = model.ancestors(at2);
              const descendants = model.descendants(at2);
              expect(trie.referenceAt(at2)).toBe(reference);
              expect(trie.ancestors(at2)).toEqual(ancestors);
              expect(sorted(trie.descendants(at2))).toEqual(sorted(descendants));
              expect(trie.isolated(at2)).toBe(ancestors.length === 0 && descendants.length === 0);
              const nothing = reference === undefined && ancestors.length === 0 && descendants.length === 0;
              // the root path is never ABSENT (its node always exists): a commit then takes the longer way
              if (at2.length > 0) expect(trie.find(at2)).toBe(nothing ? ABSENT : reference);
            }
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
