import { z } from "zod";
import { defineTool } from "../tool-definition.js";

/**
 * Tools whose schemas strict mode can say exactly (no deviation): zod tools with optional parameters,
 * enums, nested objects and arrays, a nullable optional parameter, JSON Schema tools with `$ref`s
 * (recursive, to definitions, to anchors), a latent tool, an `_outputPath` rule.
 */
export const exactStrictTools = [
  defineTool({
    name: "search",
    description: "Searches the catalogue",
    input: z.object({
      query: z.string(),
      limit: z.number().int().min(1).max(100).optional(),
      mode: z.enum(["fast", "deep"]).default("fast"),
      filters: z
        .object({
          from: z.string().optional(),
          tags: z.array(z.string()).optional(),
          range: z.object({ low: z.number(), high: z.number().optional() }).optional(),
        })
        .optional(),
      cursor: z.string().nullable().optional(),
      strictFlag: z.boolean().nullable(),
    }),
    output: z.array(z.object({ id: z.string() })),
    run: () => [],
  }),
  defineTool({
    name: "contact",
    input: z.strictObject({ email: z.email(), kind: z.literal("person").optional() }),
    run: () => 1,
  }),
  {
    name: "tree",
    input: {
      type: "object",
      properties: { node: { $ref: "#/$defs/node" } },
      required: ["node"],
      additionalProperties: false,
      $defs: {
        node: {
          type: "object",
          properties: { name: { type: "string" }, kids: { type: "array", items: { $ref: "#/$defs/node" } } },
          required: ["name"],
          additionalProperties: false,
        },
      },
    },
    run: () => 1,
  },
  {
    name: "anchored",
    input: {
      type: "object",
      properties: { a: { $ref: "#item" }, list: { type: "array", items: { $ref: "#/definitions/item" } } },
      definitions: { item: { $anchor: "item", type: "integer", minimum: 1 } },
    },
    run: () => 1,
  },
  {
    name: "choose",
    input: {
      type: "object",
      properties: {
        v: {
          anyOf: [
            {
              type: "object",
              properties: { k: { type: "integer" }, note: { type: "string" } },
              required: ["k"],
            },
            { type: "string", enum: ["none", "all"] },
          ],
        },
        pair: { type: ["number", "null"] },
      },
      required: ["v"],
    },
    run: () => 1,
  },
  defineTool({
    name: "approve",
    description: "A person's decision",
    output: z.object({ approved: z.boolean(), note: z.string().optional() }),
  }),
  defineTool({
    name: "setSummary",
    input: z.object({ text: z.string() }),
    outputPath: { const: "†state.user.summary" },
    run: () => "s",
  }),
  defineTool({ name: "now", run: () => 1 }),
  defineTool({
    name: "grade",
    input: z.object({
      scores: z.record(z.enum(["math", "art"]), z.number()),
      marks: z.partialRecord(z.enum(["x", "y"]), z.string()).optional(),
      single: z.record(z.literal("k"), z.boolean()),
    }),
    run: () => 1,
  }),
];

/** Tools strict mode cannot say exactly, each deviation on purpose. */
export const loosenedStrictTools = [
  {
    name: "fetch",
    input: {
      type: "object",
      properties: {
        url: { type: "string" },
        headers: { type: "object", additionalProperties: { type: "string" } },
        meta: { type: "object" },
      },
      required: ["url"],
    },
    run: () => 1,
  },
  {
    name: "patterned",
    input: {
      type: "object",
      properties: { m: { type: "object", patternProperties: { "^x": { type: "integer" } } } },
    },
    run: () => 1,
  },
  {
    name: "shaped",
    input: {
      type: "object",
      properties: {
        code: { type: "string", pattern: "^(?!tmp)[a-z]+$", minLength: 2 },
        count: { type: "integer", not: { const: 13 } },
        both: { allOf: [{ type: "object", properties: { a: { type: "string" } } }, { required: ["a"] }] },
        pair: { type: "array", prefixItems: [{ type: "string" }, { type: "number" }], items: false },
        anything: {},
      },
    },
    run: () => 1,
  },
  { name: "loose", input: z.looseObject({ a: z.string() }), run: () => 1 },
  defineTool({
    name: "ticket",
    input: z.object({
      fields: z.record(z.string(), z.string()).describe("custom fields"),
      codes: z.record(z.string().regex(/^x/), z.number()).optional(),
    }),
    run: () => 1,
  }),
  {
    name: "named",
    input: {
      type: "object",
      properties: {
        m: {
          type: "object",
          properties: { Abc: { type: "string" }, ok: { type: "string" } },
          propertyNames: { pattern: "^[a-z]+$" },
          additionalProperties: false,
        },
      },
    },
    run: () => 1,
  },
];

/**
 * Optional parameters whose schema takes any value without naming `null`: Obelisk's widening of
 * `z.coerce.*`, `z.preprocess` and `.catch` (to `{}`), `z.unknown()`, a JSON Schema `{}`; beside them one
 * that names `null` (`nullableAny`). Strict mode has the model write `null` for each one it leaves out.
 */
export const reportInput = z.object({
  region: z.string(),
  from: z.coerce.date().optional().describe("start date; leave out for all time"),
  minTotal: z.coerce.number().optional(),
  label: z.coerce.string().optional(),
  includeRefunds: z.coerce.boolean().optional(),
  rounded: z.preprocess((v) => (typeof v === "number" ? Math.round(v) : v), z.number()).optional(),
  page: z.number().catch(1),
  extra: z.unknown().optional(),
  nullableAny: z.unknown().nullable().optional(),
});

/** `reportInput`'s tool, and a latent tool without an output schema (its `_output` takes any value). */
export const anyValueStrictTools = [
  defineTool({ name: "report", input: reportInput, run: () => 1 }),
  defineTool({ name: "ask" }),
  {
    name: "raw",
    input: { type: "object", properties: { anything: {}, list: { type: "array", items: {} } } },
    run: () => 1,
  },
];

/**
 * Tools guarded against plans (decision 0031): approval parameters (a required one and an optional one),
 * and a tool that is not idempotent (its own retry of 2 attempts) before an idempotent one.
 */
export const guardedStrictTools = [
  defineTool({
    name: "refund",
    input: z.object({
      orderId: z.string(),
      approval: z.object({ by: z.string() }),
      second: z.object({ by: z.string() }).optional(),
    }),
    approvalParams: ["approval", "second"],
    idempotent: false,
    retry: { attempts: 2 },
    run: () => 1,
  }),
  defineTool({ name: "lookup", input: z.object({ id: z.string() }), run: () => 1 }),
];

/** Every optional meta-property of a call absent (`null`), as strict mode has the model write it. */
export const ABSENT_META = {
  _id: null,
  _outputPath: null,
  _outputMethod: null,
  _description: null,
  _rerun: null,
  _timeoutMs: null,
  _retry: null,
} as const;

/**
 * A call of `exactStrictTools`' `search` as strict mode has the model write it: every meta-property and
 * optional parameter `null` (absent), `query` "q"; `fields` replaces or adds.
 */
export const strictSearchCall = (fields: Record<string, unknown> = {}) => ({
  _tool: "search",
  ...ABSENT_META,
  query: "q",
  limit: null,
  mode: null,
  filters: null,
  cursor: null,
  strictFlag: null,
  ...fields,
});

/** A plan document as strict mode has the model write it (`id` and `description` absent). */
export const strictPlan = (...calls: unknown[]) => ({
  type: "plan",
  id: null,
  description: null,
  plan: calls,
});
