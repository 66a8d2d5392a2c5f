import { canonicalJson, sha256Hex } from "@obelisk/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fakeCall } from "./__fixtures__/fake-call.js";
import { callHash, callKeyJson } from "./call-hash.js";

describe("callHash", () => {
  it("is the SHA-256 of the canonical JSON of tool, params, output path and method", () => {
    const call = fakeCall("c", 0, { writes: [["†state.a"], ["†state.b"]], method: "push" });
    const params = { z: 1, a: { y: [1, "x"], b: null } };
    const key = {
      tool: call.tool,
      params,
      outputPath: call.outputPath?.text ?? null,
      method: call.outputMethod,
    };
    expect(callKeyJson(call, params)).toBe(canonicalJson(key));
    expect(callHash(call, params)).toBe(`sha256:${sha256Hex(canonicalJson(key))}`);
  });

  it("includes a latent call's _output and changes with the parameters", () => {
    const call = { ...fakeCall("c", 0), hasOutput: true, output: { v: 1 } };
    const key = { tool: call.tool, params: {}, outputPath: null, method: "set", output: { v: 1 } };
    expect(callKeyJson(call, {})).toBe(canonicalJson(key));
    expect(callHash(call, { a: 1 })).not.toBe(callHash(call, { a: 2 }));
  });

  it("equals the canonical JSON of the key for any tool, output path text and method (escapes included)", () => {
    const text = fc.oneof(
      fc.string({ unit: "binary" }),
      fc.constantFrom("†state.a", 'a"b', "a\\b", "\u0001", "\ud800", "😀"),
    );
    fc.assert(
      fc.property(text, text, text, fc.boolean(), (tool, path, method, withPath) => {
        const base = fakeCall("c", 0, withPath ? { writes: [["†state.a"]] } : {});
        const outputPath = base.outputPath === undefined ? undefined : { ...base.outputPath, text: path };
        const call = {
          ...base,
          tool,
          outputMethod: method as "set",
          ...(outputPath === undefined ? {} : { outputPath }),
        };
        const params = { b: [path], a: 1 };
        const key = { tool, params, outputPath: outputPath?.text ?? null, method };
        expect(callKeyJson(call, params)).toBe(canonicalJson(key));
      }),
    );
  });
});
