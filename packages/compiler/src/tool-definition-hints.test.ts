import { describe, expect, it } from "vitest";
import { thrownUsage } from "./__fixtures__/thrown-usage.js";
import { compile } from "./compile.js";
import { createToolRegistry } from "./tool-registry.js";

const tool = (more: object) => ({ name: "t", input: { type: "object" }, run: () => 1, ...more });

describe("a refused tool definition's USAGE says what is allowed (review s33r, 'no hint' list)", () => {
  it.each<[string, unknown, RegExp, RegExp]>([
    ["a name with a space", tool({ name: "a b" }), /^invalid tool name "a b"/, /e\.g\. "a_b"/],
    ["a name starting with a digit", tool({ name: "1st" }), /^invalid tool name "1st"/, /e\.g\. "_1st"/],
    ["an empty name", tool({ name: "" }), /^invalid tool name ""/, /name: "lookup"/],
    [
      "a 100,000-character name",
      tool({ name: "n ".repeat(50_000) }),
      /… \(100000 characters\): expected/,
      /e\.g\./,
    ],
    ["null as a tool", null, /^a tool must be an object \(got null\)$/, /defineTool\(/],
    ["a run that is no function", tool({ run: 5 }), /run must be a function$/, /run: async \(args, ctx\)/],
    [
      "timeoutMs NaN",
      tool({ timeoutMs: Number.NaN }),
      /timeoutMs must be a positive number$/,
      /timeoutMs: 5000/,
    ],
    [
      "outcomes of numbers",
      tool({ outcomes: [1] }),
      /outcomes must be an array of strings$/,
      /outcomes: \["found", "notFound"\]/,
    ],
    [
      "an outputPath schema that is a string",
      tool({ outputPath: "state.x" }),
      /outputPath: expected a zod schema or a JSON Schema object$/,
      /z\.object/,
    ],
    ["latent 'yes'", tool({ latent: "yes" }), /latent must be true or false$/, /without run is latent/],
    ["idempotent 'no'", tool({ idempotent: "no" }), /idempotent must be true or false$/, /idempotent: false/],
    [
      "approvalParams a string",
      tool({ approvalParams: "amount" }),
      /approvalParams must be an array/,
      /approvalParams: \["amount"\]/,
    ],
  ])("%s", (_label, given, message, hint) => {
    const error = thrownUsage(() => createToolRegistry([given]), "the tool was registered");
    expect(error.message).toMatch(message);
    expect(error.hint).toMatch(hint);
    expect(error.message.length).toBeLessThan(300);
  });

  it("tools that are neither an array nor an object by name", () => {
    expect(thrownUsage(() => createToolRegistry("echo"), "registered").hint).toMatch(
      /tools: \[greet, lookup\]/,
    );
  });
});

describe("a plan item that is no call", () => {
  it.each([null, 5, "echo", [1]])("%s: CALL_SHAPE with a hint showing a call", (item) => {
    const registry = createToolRegistry([tool({})]);
    const [diagnostic] = compile([item], registry).diagnostics;
    expect(diagnostic?.code).toBe("CALL_SHAPE");
    expect(diagnostic?.hint).toBe(
      'each item of the plan is one call: { "_tool": "<tool name>", <parameters> }',
    );
  });
});
