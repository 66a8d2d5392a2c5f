import { describe, expect, it } from "vitest";
import { getAtPath } from "./get-at-path.js";
import type { JsonValue } from "./json-value.js";

const root: JsonValue = {
  user: { name: "Ada", age: 0, verified: false, note: null, tags: ["a", "b", "c"] },
  years: { "2024": "leap" },
  empty: "",
};

describe("getAtPath", () => {
  it.each([
    [[], root],
    [["user", "name"], "Ada"],
    [["user", "age"], 0],
    [["user", "verified"], false],
    [["user", "note"], null],
    [["empty"], ""],
    [["user", "tags", 0], "a"],
    [["user", "tags", -1], "c"],
    [["user", "tags", -3], "a"],
    [["years", 2024], "leap"],
    [["years", "2024"], "leap"],
  ])("finds %j", (path, value) => {
    expect(getAtPath(root, path)).toEqual({ found: true, value });
  });

  it.each([
    [["missing"]],
    [["user", "name", "first"]],
    [["user", "tags", 3]],
    [["user", "tags", -4]],
    [["user", "tags", "0"]],
    [["user", "tags", "length"]],
    [["user", "tags", 0.5]],
    [["user", "note", "x"]],
    [["user", "toString"]],
    [["user", "hasOwnProperty"]],
    [["__proto__"]],
    [["constructor"]],
    [["user", "constructor", "prototype"]],
    [["years", -1]],
  ])("does not find %j", (path) => {
    expect(getAtPath(root, path)).toEqual({ found: false });
  });

  it("finds nothing below an undefined root, and null at the root", () => {
    expect(getAtPath(undefined, [])).toEqual({ found: false });
    expect(getAtPath(null, [])).toEqual({ found: true, value: null });
  });

  it("never reaches a __proto__ key even when it is an own property", () => {
    const hostile = JSON.parse('{"__proto__": {"x": 1}}') as JsonValue;
    expect(getAtPath(hostile, ["__proto__", "x"])).toEqual({ found: false });
  });
});
