import { describe, expect, it } from "vitest";
import { z } from "zod";
import { compile } from "./compile.js";
import { defineTool } from "./tool-definition.js";
import { createToolRegistry } from "./tool-registry.js";

const ship = defineTool({
  name: "ship",
  input: z.object({
    method: z.discriminatedUnion("kind", [
      z.object({ kind: z.literal("post"), days: z.number() }),
      z.object({ kind: z.literal("courier"), company: z.string() }),
    ]),
    point: z.tuple([z.number(), z.number()]).optional(),
  }),
  run: () => 1,
});
const tools = createToolRegistry([ship]);
const diagnostics = (call: Record<string, unknown>) =>
  compile([{ _tool: "ship", ...call }], tools).diagnostics.map((d) => ({
    code: d.code,
    pointer: d.pointer,
    message: d.message,
  }));

describe("one violation, one diagnostic that says what is wrong", () => {
  it("a tuple given too many items: one PARAM_INVALID, not one per keyword saying the same", () => {
    expect(diagnostics({ method: { kind: "post", days: 1 }, point: [1, 2, 3] })).toEqual([
      { code: "PARAM_INVALID", pointer: "/0/point", message: "point: must NOT have more than 2 items" },
    ]);
  });

  it("a discriminated union given an unknown discriminator: PARAM_INVALID at it, naming the allowed values", () => {
    expect(diagnostics({ method: { kind: "plane", days: 1 } })).toEqual([
      {
        code: "PARAM_INVALID",
        pointer: "/0/method/kind",
        message: 'method/kind: must be one of "post", "courier"',
      },
    ]);
  });

  it("a known discriminator: that member's own violation; a reference as discriminator: nothing", () => {
    expect(diagnostics({ method: { kind: "courier", days: 1 } }).map((d) => d.code)).toEqual([
      "PARAM_INVALID",
    ]);
    expect(diagnostics({ method: { kind: "†input.kind", days: 1 } })).toEqual([]);
  });
});
