import { describe, expect, expectTypeOf, it } from "vitest";
import { z } from "zod";
import { defineTool, type InferInput, type ToolDefinition } from "./tool-definition.js";
import { createToolRegistry } from "./tool-registry.js";

// Type-level tests: `pnpm lint` type-checks this file, so a regression fails there (the runtime part
// checks that every definition registers).

/** A plain-object tool written inline where a ToolDefinition is expected: args are "any object". */
const inline: ToolDefinition = {
  name: "search",
  input: { type: "object", properties: { q: { type: "string" } } },
  run: (args) => {
    expectTypeOf(args).toEqualTypeOf<Record<string, unknown>>();
    return [args.q];
  },
};

/** defineTool without an input schema: args are "any object" too. */
const noInput = defineTool({
  name: "echo",
  run: (args) => {
    expectTypeOf(args).toEqualTypeOf<Record<string, unknown>>();
    return { got: args.x };
  },
});

/** A plain-object tool whose run declares its own argument type (a JSON Schema input). */
const typedPlain = {
  name: "search2",
  input: { type: "object", properties: { q: { type: "string" } } },
  run: (args: { q: string }) => [args.q.length],
};

/** zod inference is kept: defaults and transforms give run their output type. */
const zodTool = defineTool({
  name: "greet",
  input: z.object({
    name: z.string(),
    times: z.number().default(1),
    at: z.string().transform((s) => s.length),
  }),
  output: z.object({ text: z.string() }),
  run: (args) => {
    expectTypeOf(args).toEqualTypeOf<{ name: string; times: number; at: number }>();
    return { text: args.name.repeat(args.times) };
  },
});

/** Without an output schema, run may return a promise it builds itself (a callback API wrapped): no TS2345. */
const wrapped = defineTool({
  name: "wait",
  input: z.object({ ms: z.number() }),
  run: ({ ms }) => new Promise((resolve) => setTimeout(() => resolve(ms), ms)),
});
const wrappedObject = defineTool({
  name: "fetchIt",
  input: z.object({ url: z.string() }),
  run: ({ url }) =>
    new Promise((resolve, reject) => (url === "" ? reject(new Error("no url")) : resolve({ body: "x" }))),
});
/** With an output schema, a built promise is held to it. */
const wrappedTyped = defineTool({
  name: "wait2",
  input: z.object({ ms: z.number() }),
  output: z.number(),
  run: ({ ms }) => new Promise((resolve) => setTimeout(() => resolve(ms), ms)),
});

describe("ToolDefinition types", () => {
  it("accepts plain, input-less, typed plain and zod tools in one list", () => {
    const tools: ToolDefinition[] = [inline, noInput, typedPlain, zodTool];
    expectTypeOf<InferInput<ToolDefinition["input"]>>().toEqualTypeOf<Record<string, unknown>>();
    expectTypeOf<InferInput<z.ZodObject<{ q: z.ZodString }>>>().toEqualTypeOf<{ q: string }>();
    // @ts-expect-error a zod tool's run gets the schema's output type, not any object
    defineTool({ name: "bad", input: z.object({ q: z.string() }), run: (args: { q: number }) => args.q });
    // @ts-expect-error the result must match the output schema (overloads report it at the call)
    defineTool({
      name: "badOutput",
      output: z.object({ k: z.number() }),
      run: () => ({ k: "x" }),
    });
    // @ts-expect-error a promise built by run is held to the output schema too
    defineTool({
      name: "badPromise",
      output: z.number(),
      run: () => new Promise<string>((resolve) => resolve("x")),
    });
    // @ts-expect-error the output schema's type, not any value, when output is given
    defineTool({
      name: "badObject",
      output: z.object({ id: z.string() }),
      run: () => ({ id: 1 }),
    });
    expectTypeOf(wrappedTyped).toEqualTypeOf<ToolDefinition<z.ZodObject<{ ms: z.ZodNumber }>, z.ZodNumber>>();
    tools.push(wrapped, wrappedObject, wrappedTyped);
    const [first] = tools;
    expectTypeOf(first).toEqualTypeOf<ToolDefinition | undefined>();
    // and every one of them registers
    expect(createToolRegistry(tools).names).toEqual(tools.map((tool) => tool.name));
  });
});
