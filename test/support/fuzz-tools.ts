import type { JsonObject } from "@obelisk/core";

/** Tools used by the fuzz suites: plain objects with JSON Schemas, deterministic implementations. */
export const fuzzTools = [
  {
    name: "fetchUser",
    description: "Fetches a user by id",
    input: {
      type: "object",
      properties: { id: { type: "string" } },
      required: ["id"],
      additionalProperties: false,
    },
    output: { type: "object", properties: { id: { type: "string" }, name: { type: "string" } } },
    run: (args: JsonObject) => ({ id: String(args.id), name: `user ${String(args.id)}` }),
  },
  {
    name: "add",
    description: "Adds two numbers",
    input: {
      type: "object",
      properties: { a: { type: "number" }, b: { type: "number" } },
      required: ["a", "b"],
      additionalProperties: false,
    },
    output: { type: "number" },
    run: (args: JsonObject) => Number(args.a) + Number(args.b),
  },
  {
    name: "echo",
    description: "Returns its input",
    input: { type: "object" },
    run: (args: JsonObject) => args,
  },
  {
    name: "greet",
    description: "Greets someone",
    input: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
    output: { type: "string" },
    run: (args: JsonObject) => `Hello ${String(args.name)}`,
  },
  {
    name: "verify",
    description: "Verifies a value, with two outcomes",
    input: { type: "object", properties: { value: {} } },
    outcomes: ["verified", "failed"],
    run: (args: JsonObject) => ({ ok: args.value !== null }),
  },
] as const;
