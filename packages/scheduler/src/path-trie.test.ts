import { pathsOverlap } from "@obelisk/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { PathTrie } from "./path-trie.js";

type Path = readonly (string | number)[];

/** The items a sweep visits (keeping them all). */
function visited<T>(trie: PathTrie<T>, kind: string, path: Path): T[] {
  const seen: T[] = [];
  trie.sweepOverlapping(kind, path, (item) => {
    seen.push(item);
    return true;
  });
  return seen;
}

describe("PathTrie", () => {
  it("visits the items filed at a prefix of the path, at it and below it, never siblings or other kinds", () => {
    const trie = new PathTrie<string>();
    trie.add("state", [], "root");
    trie.add("state", ["a"], "a");
    trie.add("state", ["a", "b"], "a.b");
    trie.add("state", ["a", "b", "c"], "a.b.c");
    trie.add("state", ["a", "x"], "a.x");
    trie.add("state", ["z"], "z");
    trie.add("input", ["a", "b"], "input a.b");
    expect(visited(trie, "state", ["a", "b"]).sort()).toEqual(["a", "a.b", "a.b.c", "root"]);
    expect(visited(trie, "state", ["a", "b", "c", "d"]).sort()).toEqual(["a", "a.b", "a.b.c", "root"]);
    expect(visited(trie, "state", []).length).toBe(6);
    expect(visited(trie, "calls", ["a"])).toEqual([]);
    expect(visited(trie, "state", ["q"])).toEqual(["root"]);
  });

  it("drops the items a sweep answers false for, and keeps the others", () => {
    const trie = new PathTrie<string>();
    for (const name of ["m1", "m2", "w1"]) trie.add("state", ["r", name], name);
    trie.add("state", ["r"], "r");
    trie.sweepOverlapping("state", ["r"], (item) => item.startsWith("w"));
    expect(trie.size).toBe(1);
    expect(visited(trie, "state", [])).toEqual(["w1"]);
  });

  it("removes one filing and prunes the nodes left empty", () => {
    const trie = new PathTrie<string>();
    trie.add("state", ["a", "b"], "x");
    trie.add("state", ["a", "b"], "x");
    expect(trie.remove("state", ["a", "b"], "x")).toBe(true);
    expect(trie.size).toBe(1);
    expect(trie.remove("state", ["a", "b"], "x")).toBe(true);
    expect(trie.remove("state", ["a", "b"], "x")).toBe(false);
    expect(trie.remove("state", ["a"], "y")).toBe(false);
    expect(trie.size).toBe(0);
    expect(visited(trie, "state", [])).toEqual([]);
  });

  it("clear removes every item", () => {
    const trie = new PathTrie<string>();
    trie.add("state", ["a"], "a");
    trie.add("input", [], "input");
    trie.clear();
    expect(trie.size).toBe(0);
    expect(visited(trie, "state", [])).toEqual([]);
    expect(visited(trie, "input", [])).toEqual([]);
  });

  it("matches an index with its spelling as a key, and a negative index with every index", () => {
    const trie = new PathTrie<string>();
    trie.add("state", ["list", 0], "index 0");
    trie.add("state", ["list", "0"], 'key "0"');
    trie.add("state", ["list", -1, "name"], "last item's name");
    trie.add("state", ["list", "-1"], 'key "-1"');
    expect(visited(trie, "state", ["list", "0"]).sort()).toEqual(["index 0", 'key "0"']);
    expect(visited(trie, "state", ["list", 0, "name"]).sort()).toEqual([
      "index 0",
      'key "0"',
      "last item's name",
    ]);
    expect(visited(trie, "state", ["list", -2]).sort()).toEqual(["index 0", "last item's name"]);
    expect(visited(trie, "state", ["list", "-1"])).toEqual(['key "-1"']);
  });

  it("visits exactly the overlapping items (random paths, against pathsOverlap)", () => {
    const segment = fc.oneof(
      fc.constantFrom("a", "b", "0", "1", "-1", "01"),
      fc.integer({ min: -2, max: 2 }),
    );
    const path = fc.array(segment, { maxLength: 4 });
    const entry = fc.record({ kind: fc.constantFrom("state", "input"), path });
    fc.assert(
      fc.property(fc.array(entry, { maxLength: 30 }), entry, (entries, query) => {
        const trie = new PathTrie<number>();
        for (const [index, e] of entries.entries()) trie.add(e.kind, e.path, index);
        const expected = entries
          .map((e, index) => ({ e, index }))
          .filter(({ e }) => e.kind === query.kind && pathsOverlap(e.path, query.path))
          .map(({ index }) => index);
        expect(visited(trie, query.kind, query.path).sort((x, y) => x - y)).toEqual(expected);
        // dropping everything visited leaves exactly the rest, and removing those empties the trie
        trie.sweepOverlapping(query.kind, query.path, () => false);
        expect(trie.size).toBe(entries.length - expected.length);
        entries.forEach((e, index) => {
          if (!expected.includes(index)) expect(trie.remove(e.kind, e.path, index)).toBe(true);
        });
        expect(trie.size).toBe(0);
        expect(visited(trie, query.kind, [])).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });
});
