import type { JsonObject, Path } from "@obelisk/core";
import { describe, expect, it } from "vitest";
import { removeEmptyParents } from "./empty-parent.js";
import { TreeEditor } from "./tree-editor.js";

const none = () => false;

/** Removes `paths`, then the parents left empty; answers the tree and the logged (outermost) parents. */
function evict(state: JsonObject, paths: readonly Path[], isVariable: (path: Path) => boolean = none) {
  const editor = new TreeEditor(state);
  for (const path of paths) editor.remove(path);
  const parents = removeEmptyParents(editor, paths, isVariable);
  return { state: editor.root, parents };
}

describe("removeEmptyParents", () => {
  it("removes the outermost container left holding only the emptied chain", () => {
    expect(evict({ a: { b: { c: { d: 1 } } } }, [["a", "b", "c", "d"]])).toEqual({
      state: {},
      parents: [["a"]],
    });
    expect(evict({ a: { b: { c: 1 } }, x: 1 }, [["a", "b", "c"]])).toEqual({
      state: { x: 1 },
      parents: [["a"]],
    });
    expect(evict({ list: ["x"] }, [["list", 0]])).toEqual({ state: {}, parents: [["list"]] });
  });

  it("stops at a container still holding something else, and never removes the state itself", () => {
    expect(evict({ a: { b: { c: 1 }, keep: 1 } }, [["a", "b", "c"]]).parents).toEqual([["a", "b"]]);
    expect(evict({ a: { b: 1, keep: 1 } }, [["a", "b"]]).parents).toEqual([]);
    expect(evict({ a: 1 }, [["a"]])).toEqual({ state: {}, parents: [] });
    expect(evict({ a: [1, 2] }, [["a", 1]])).toEqual({ state: { a: [1, null] }, parents: [] });
  });

  it("an evicted element leaves a hole; an array of holes only goes, unless an element is a written null", () => {
    expect(evict({ a: ["x", "y"] }, [["a", 0]])).toEqual({ state: { a: [null, "y"] }, parents: [] });
    expect(
      evict({ a: ["x", "y"] }, [
        ["a", 0],
        ["a", 1],
      ]),
    ).toEqual({ state: {}, parents: [["a"]] });
    const written = (path: Path) => path.length === 2 && path[1] === 1;
    expect(evict({ a: ["x", null] }, [["a", 0]], written).state).toEqual({ a: [null, null] });
    // an element container emptied becomes a hole too
    expect(evict({ a: [{ b: 1 }, "y"] }, [["a", 0, "b"]])).toEqual({
      state: { a: [null, "y"] },
      parents: [["a", 0]],
    });
  });

  it("keeps a container a variable sits at (written as {} itself) and everything above it", () => {
    const atA = (path: Path) => path.length === 1;
    expect(evict({ a: { b: { c: 1 } } }, [["a", "b", "c"]], atA)).toEqual({
      state: { a: {} },
      parents: [["a", "b"]],
    });
    const atB = (path: Path) => path.length === 2;
    expect(evict({ a: { b: { c: 1 } } }, [["a", "b", "c"]], atB).parents).toEqual([]);
  });

  it("never changes the tree it was given", () => {
    const state = Object.freeze({ a: Object.freeze(["x", "y"]) }) as unknown as JsonObject;
    expect(evict(state, [["a", 0]]).state).toEqual({ a: [null, "y"] });
    expect(state).toEqual({ a: ["x", "y"] });
  });
});
