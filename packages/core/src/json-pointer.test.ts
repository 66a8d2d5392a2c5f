import { describe, expect, it } from "vitest";
import { appendPointer, parsePointer, pointerFromPath, resolvePointer } from "./json-pointer.js";

describe("JSON Pointer", () => {
  it("escapes ~ and / (RFC 6901)", () => {
    expect(appendPointer("/plan", "a/b~c")).toBe("/plan/a~1b~0c");
    expect(pointerFromPath(["plan", 0, "_tool"])).toBe("/plan/0/_tool");
    expect(pointerFromPath([])).toBe("");
    expect(appendPointer("", "")).toBe("/");
  });

  it("parses back what it builds", () => {
    const segments = ["a/b", "~1", "", "0", "x~0y"];
    expect(parsePointer(pointerFromPath(segments))).toEqual(segments);
    expect(parsePointer("")).toEqual([]);
    expect(parsePointer("/")).toEqual([""]);
  });

  it("resolves own properties and array indices", () => {
    const document = { plan: [{ _tool: "x", "a/b": 1 }], "": { "": 2 } };
    expect(resolvePointer(document, "/plan/0/_tool")).toEqual({ found: true, value: "x" });
    expect(resolvePointer(document, "/plan/0/a~1b")).toEqual({ found: true, value: 1 });
    expect(resolvePointer(document, "//")).toEqual({ found: true, value: 2 });
    expect(resolvePointer(document, "")).toEqual({ found: true, value: document });
    expect(resolvePointer(document, "/plan/1")).toEqual({ found: false });
    expect(resolvePointer(document, "/plan/01")).toEqual({ found: false });
    expect(resolvePointer(document, "/plan/-")).toEqual({ found: false });
    expect(resolvePointer(document, "/plan/0/_tool/length")).toEqual({ found: false });
  });

  it("never reaches prototypes", () => {
    const document = { a: {} };
    expect(resolvePointer(document, "/a/__proto__")).toEqual({ found: false });
    expect(resolvePointer(document, "/a/constructor")).toEqual({ found: false });
    expect(resolvePointer(document, "/a/toString")).toEqual({ found: false });
    expect(resolvePointer([], "/length")).toEqual({ found: false });
    const own = JSON.parse('{"__proto__": {"x": 1}}') as unknown;
    expect(resolvePointer(own, "/__proto__/x")).toEqual({ found: true, value: 1 });
  });
});
