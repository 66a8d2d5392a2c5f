import type { Diagnostic } from "@obelisk/core";
import { describe, expect, it } from "vitest";
import { exampleTools } from "./__fixtures__/tools.js";
import { compile } from "./compile.js";
import { createIncrementalCompiler } from "./incremental-compiler.js";
import { createToolRegistry } from "./tool-registry.js";

const registry = createToolRegistry([
  ...exampleTools,
  { name: "lat", input: { type: "object" } },
  { name: "echo", input: { type: "object", properties: { v: {} } }, run: () => 1 },
]);
const shape = (diagnostics: readonly Diagnostic[]) => diagnostics.map((d) => [d.code, d.severity, d.pointer]);
const suspicious = (pointer: string) => ["REF_SUSPICIOUS", "warning", pointer];

describe("_output of a latent call is a literal (SPEC §2 rule 4, §4)", () => {
  it("a reference, a template or an alias inside _output warns at the string, with a hint", () => {
    const result = compile(
      [
        {
          _tool: "lat",
          _id: "l",
          _output: {
            who: "†input.user",
            text: "hi {†input.user}",
            list: ["plain", "see †state.x later", "$tool_output.f", "$tool_output.f.name"],
            price: "10 $",
            escaped: "††input.user",
          },
          _outputPath: "†state.x",
        },
      ],
      registry,
    );
    expect(result.ok).toBe(true);
    expect(shape(result.diagnostics)).toEqual([
      suspicious("/0/_output/who"),
      suspicious("/0/_output/text"),
      suspicious("/0/_output/list/1"),
      suspicious("/0/_output/list/2"),
      suspicious("/0/_output/list/3"),
    ]);
    expect(result.diagnostics[0]?.hint).toContain("never resolved");
  });

  it("a whole _output string, and a malformed reference there (a literal, so only a warning)", () => {
    const result = compile(
      [
        { _tool: "lat", _id: "a", _output: "†input.user" },
        { _tool: "lat", _id: "b", _output: "†state.x y" },
        { _tool: "lat", _id: "c", _output: "† no kind" },
      ],
      registry,
    );
    expect(shape(result.diagnostics)).toEqual([suspicious("/0/_output"), suspicious("/1/_output")]);
  });
});

describe("REF_SUSPICIOUS in templates (an unbraced reference beside a braced one)", () => {
  it("warns at the string; the braced part is still a reference", () => {
    const plan = [{ _tool: "echo", _id: "e", v: "x {†input.a} and †input.b" }];
    const result = compile(plan, registry, { context: { input: { a: "A", b: "B" } } });
    expect(shape(result.diagnostics)).toEqual([suspicious("/0/v")]);
    expect(result.calls[0]?.references.map((r) => r.value.type)).toEqual(["template"]);
  });

  it("every repetition of the same template text warns (parsed once, shared)", () => {
    const text = "{†state.a} then †state.b";
    const result = compile(
      [
        { _tool: "echo", v: text },
        { _tool: "echo", v: { deep: [text] } },
      ],
      registry,
    );
    expect(shape(result.diagnostics)).toEqual([suspicious("/0/v"), suspicious("/1/v/deep/0")]);
  });

  it("a `††` in a literal part of a template is flagged; escapes and plain templates are not", () => {
    const result = compile(
      [
        { _tool: "echo", v: "x {†input.a} ††state.y" },
        { _tool: "echo", v: "{††state.x} and {†input.a}" },
        { _tool: "echo", v: "{†input.a} costs 5 † each" },
      ],
      registry,
    );
    expect(shape(result.diagnostics)).toEqual([suspicious("/0/v")]);
  });
});

describe("$tool_output.<id> is a whole-value alias only (SPEC §2 rule 7)", () => {
  it("with a path after the id: a literal, REF_SUSPICIOUS with the †calls spelling as hint", () => {
    const result = compile(
      [
        { _tool: "fetchUser", _id: "f", userId: "u1" },
        { _tool: "echo", _id: "r", v: "$tool_output.f.name" },
        { _tool: "echo", _id: "s", v: "$tool_output.f[0]" },
      ],
      registry,
    );
    expect(shape(result.diagnostics)).toEqual([suspicious("/1/v"), suspicious("/2/v")]);
    expect(result.diagnostics[0]?.hint).toMatch(/^use "†calls\.f\.name"/);
    expect(result.diagnostics[1]?.hint).toMatch(/^use "†calls\.f\[0\]"/);
  });

  it("inside text or a template: REF_SUSPICIOUS with a {†calls.<id>} hint", () => {
    const result = compile(
      [
        { _tool: "fetchUser", _id: "f", userId: "u1" },
        { _tool: "echo", v: "x $tool_output.f y" },
        { _tool: "echo", v: "{†input.a} $tool_output.f" },
        { _tool: "echo", v: "{$tool_output.f}" },
      ],
      registry,
      { context: { input: { a: 1 } } },
    );
    expect(shape(result.diagnostics)).toEqual([suspicious("/1/v"), suspicious("/2/v"), suspicious("/3/v")]);
    expect(result.diagnostics[0]?.hint).toMatch(/^inside text write \{†calls\.f\}/);
  });

  it("the alias itself, other dollars, and streaming", () => {
    const result = compile(
      [
        { _tool: "fetchUser", _id: "f", userId: "u1" },
        { _tool: "echo", v: "$tool_output.f" },
        { _tool: "echo", v: "costs $5, $tool_output. or $tool_outputs.f" },
      ],
      registry,
    );
    expect(result.diagnostics).toEqual([]);
    expect(result.calls[1]?.writers.get("†calls.f")?.[0]?.callId).toBe("f");
    const compiler = createIncrementalCompiler(registry);
    const added = compiler.addCall({ _tool: "echo", v: "$tool_output.f.name" });
    expect(added.ok).toBe(true);
    expect(shape(added.diagnostics)).toEqual([suspicious("/plan/0/v")]);
  });
});
