import { describe, expect, it } from "vitest";
import { emptyParent } from "./empty-parent.js";

const none = () => false;

describe("emptyParent", () => {
  it("finds the outermost container left holding only the emptied chain", () => {
    expect(emptyParent({ a: { b: { c: {} } } }, ["a", "b", "c", "d"], none)).toEqual(["a"]);
    expect(emptyParent({ a: { b: {} }, x: 1 }, ["a", "b", "c"], none)).toEqual(["a"]);
    expect(emptyParent({ list: [] }, ["list", 0], none)).toEqual(["list"]);
  });

  it("stops at a container still holding something else, and never offers the state itself", () => {
    expect(emptyParent({ a: { b: {}, keep: 1 } }, ["a", "b", "c"], none)).toEqual(["a", "b"]);
    expect(emptyParent({ a: { keep: 1 } }, ["a", "b"], none)).toBeUndefined();
    expect(emptyParent({}, ["a"], none)).toBeUndefined();
    expect(emptyParent({ a: [1] }, ["a", 1], none)).toBeUndefined();
  });

  it("keeps a container a variable sits at (written as {} itself) and everything above it", () => {
    // †state.a was written as {}; †state.a.b.c was written later (creating b) and is evicted
    expect(emptyParent({ a: { b: {} } }, ["a", "b", "c"], (length) => length === 1)).toEqual(["a", "b"]);
    expect(emptyParent({ a: { b: {} } }, ["a", "b", "c"], (length) => length === 2)).toBeUndefined();
  });
});
