import { z } from "zod";
import { defineTool } from "../tool-definition.js";

/** The tools of the SPEC examples, in every accepted form. */
export const exampleTools = [
  defineTool({
    name: "fetchUser",
    description: "Loads a user",
    input: z.object({ userId: z.string() }),
    output: z.object({ name: z.string(), age: z.number(), address: z.object({ city: z.string() }) }),
    run: ({ userId }) => ({ name: userId, age: 30, address: { city: "Paris" } }),
  }),
  defineTool({
    name: "greetUser",
    input: z.object({ userName: z.string() }),
    output: z.string(),
    run: ({ userName }) => `Hello ${userName}`,
  }),
  defineTool({
    name: "verifyUser",
    input: z.object({ userId: z.string() }),
    output: z.object({ ok: z.boolean() }),
    outcomes: ["verified", "failed"],
    run: () => ({ ok: true }),
  }),
  {
    name: "generateSummary",
    input: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
    output: { type: "string" },
    run: () => "summary",
  },
  defineTool({
    name: "detectLanguage",
    input: z.object({ text: z.string() }),
    output: z.string(),
    run: () => "en",
  }),
  defineTool({
    name: "isEnglish",
    input: z.object({ language: z.string() }),
    output: z.boolean(),
    outcomes: ["english", "other"],
    run: () => true,
  }),
  defineTool({
    name: "translateText",
    input: z.object({ text: z.string(), to: z.string() }),
    output: z.string(),
    run: () => "x",
  }),
  defineTool({
    name: "processPayment",
    input: z.object({ amount: z.number() }),
    output: z.object({ id: z.string() }),
    run: () => ({ id: "r1" }),
  }),
  defineTool({
    name: "confirmOrder",
    input: z.object({ receipt: z.object({ id: z.string() }) }),
    run: () => true,
  }),
  defineTool({
    name: "add",
    input: z.strictObject({ a: z.number(), b: z.number() }),
    output: z.number(),
    run: ({ a, b }) => a + b,
  }),
  defineTool({
    name: "log",
    input: z.object({ message: z.string() }),
    output: z.string(),
    run: ({ message }) => message,
  }),
  defineTool({
    name: "setSummary",
    input: z.object({ text: z.string() }),
    outputPath: { const: "†state.user.summary" },
    run: () => "s",
  }),
  defineTool({
    name: "approve",
    description: "A person's decision",
    output: z.object({ approved: z.boolean() }),
  }),
  defineTool({ name: "now", cost: 5, run: () => 1 }),
];

/** The spec's JSON Schema tool form. */
export const specFormTool = {
  type: "object",
  description: "Sends an email",
  properties: {
    _tool: { const: "sendEmail" },
    to: { type: "string" },
    body: { type: "string" },
    _outputPath: { pattern: "^†state\\.mail\\." },
  },
  required: ["_tool", "to"],
  additionalProperties: false,
};
