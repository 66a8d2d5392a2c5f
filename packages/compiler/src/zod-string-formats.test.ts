import { afterEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { compile } from "./compile.js";
import { defineTool } from "./tool-definition.js";
import { createToolRegistry } from "./tool-registry.js";

afterEach(() => {
  vi.restoreAllMocks();
});

describe("zod's string checks written as formats (adversarial review, stop 39)", () => {
  it("are checked by their pattern, said by it or in words, and print nothing", () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const log = vi.spyOn(console, "log").mockImplementation(() => {});
    const registry = createToolRegistry([
      defineTool({
        name: "t",
        input: z.object({
          suffix: z.string().endsWith("x"),
          prefix: z.string().startsWith("y"),
          inner: z.string().includes("q"),
          upper: z.string().uppercase(),
          lower: z.string().lowercase(),
        }),
        run: () => 1,
      }),
    ]);
    const compiled = compile(
      [{ _tool: "t", suffix: "abc", prefix: "abc", inner: "abc", upper: "abC", lower: "Abc" }],
      registry,
    );
    expect(compiled.diagnostics.map((d) => [d.code, d.pointer, d.message])).toEqual([
      ["PARAM_INVALID", "/0/suffix", 'suffix: must match pattern ".*x$"'],
      ["PARAM_INVALID", "/0/prefix", 'prefix: must match pattern "^y.*"'],
      ["PARAM_INVALID", "/0/inner", 'inner: must match pattern "q"'],
      [
        "PARAM_INVALID",
        "/0/upper",
        'upper: must be in upper case (no lower-case letters) (format "uppercase")',
      ],
      [
        "PARAM_INVALID",
        "/0/lower",
        'lower: must be in lower case (no upper-case letters) (format "lowercase")',
      ],
    ]);
    const valid = compile(
      [{ _tool: "t", suffix: "abx", prefix: "yes", inner: "aqa", upper: "ABC", lower: "abc" }],
      registry,
    );
    expect(valid.ok).toBe(true);
    expect(warn).not.toHaveBeenCalled();
    expect(log).not.toHaveBeenCalled();
  });

  it("a format ajv does not know is not checked, and not printed either", () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const registry = createToolRegistry([
      {
        name: "j",
        input: { type: "object", properties: { i: { type: "string", format: "iri" } } },
        run: () => 1,
      },
    ]);
    expect(compile([{ _tool: "j", i: "::" }], registry).ok).toBe(true);
    expect(warn).not.toHaveBeenCalled();
  });
});
