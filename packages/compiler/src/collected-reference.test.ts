import { describe, expect, it } from "vitest";
import { compile } from "./compile.js";
import { createIncrementalCompiler } from "./incremental-compiler.js";
import { createToolRegistry } from "./tool-registry.js";

const registry = createToolRegistry([{ name: "take", input: { type: "object" }, run: () => 1 }]);
const calls = [
  { _tool: "take", _id: "a", _outputPath: "†state.a" },
  {
    _tool: "take",
    _id: "b",
    first: "†state.a",
    items: ["x", "†state.a.n"],
    "odd/key~": { deep: ["†state.a || †input.x"] },
    text: "a {†state.a} b",
  },
];

const expectedPointers = ["/1/first", "/1/items/1", "/1/odd~1key~0/deep/0", "/1/text"];

describe("a compiled call's references", () => {
  it("give each string's JSON Pointer, at shared and unshared locations", () => {
    const compiled = compile(calls, registry);
    const references = compiled.calls[1]?.references ?? [];
    expect(references.map((reference) => reference.pointer)).toEqual(expectedPointers);
    expect(references.map((reference) => reference.location)).toEqual([
      ["first"],
      ["items", 1],
      ["odd/key~", "deep", 0],
      ["text"],
    ]);
  });

  it("show location, pointer and value in JSON, in that order", () => {
    const reference = compile(calls, registry).calls[1]?.references[0];
    const json = JSON.parse(JSON.stringify(reference)) as Record<string, unknown>;
    expect(Object.keys(json)).toEqual(["location", "pointer", "value"]);
    expect(json.pointer).toBe("/1/first");
    expect(json.value).toEqual(JSON.parse(JSON.stringify(reference?.value)));
  });

  // A pointer kept per reference was a concatenated string (and a field) for as long as the compiled plan
  // lived: it is made on read by one getter every reference shares (compiler.md, stop 37).
  it("make their pointer on read, with one getter shared by every reference, batch and streaming", () => {
    const batch = compile(calls, registry).calls[1]?.references ?? [];
    const stream = createIncrementalCompiler(registry);
    for (const call of calls) stream.addCall(call);
    const streamed = stream.close().calls[1]?.references ?? [];
    // A stream numbers its calls as items of `plan`.
    expect(streamed.map((reference) => reference.pointer)).toEqual(
      expectedPointers.map((pointer) => `/plan${pointer}`),
    );
    for (const reference of [...batch, ...streamed]) {
      expect(Object.getOwnPropertyDescriptor(reference, "pointer")).toBeUndefined();
      expect(Object.getPrototypeOf(reference)).toBe(Object.getPrototypeOf(batch[0]));
    }
  });
});
