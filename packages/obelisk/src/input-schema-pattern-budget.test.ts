import type { JsonObject, JsonValue } from "@obelisk/core";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { InputChecker } from "./check-input.js";
import { normalizeInput } from "./normalize-input.js";

const found = (schema: JsonObject, input: JsonValue) =>
  new InputChecker()
    .check(normalizeInput(input), schema)
    .map((d) => ({ code: d.code, pointer: d.pointer, message: d.message }));

/** 1,000 × `a{1000}` (7 KB): RE2's parser takes it; re2js took 6 s and 389 MB of heap to compile it. */
const FLAT_BOMB = `^(?:${"a{1000}".repeat(1000)})$`;

describe("a plan inputSchema's patterns compile to bounded programs (decision 0106)", () => {
  it("the flat-concatenation bomb is PLAN_SHAPE at its pattern, with how to shorten it", () => {
    expect(found({ properties: { s: { type: "string", pattern: FLAT_BOMB } } }, { s: "a" })).toEqual([
      {
        code: "PLAN_SHAPE",
        pointer: "/inputSchema/properties/s/pattern",
        message: expect.stringMatching(
          /^inputSchema is not a usable JSON Schema: the pattern "\^\(\?:a\{1000\}.{49}…" compiles to about 1,000,002 RE2 instructions, over the 10,000 one pattern may use: shorten the repeat counts .* or bound lengths with maxLength$/,
        ),
      },
    ]);
  });

  it("a patternProperties key over the budget is PLAN_SHAPE at the key", () => {
    const schema = { patternProperties: { [`^${"[a-z]{1000}".repeat(11)}$`]: { type: "string" } } };
    expect(found(schema, {}).map((d) => [d.code, d.pointer])).toEqual([
      ["PLAN_SHAPE", `/inputSchema/patternProperties/^${"[a-z]{1000}".repeat(11)}$`],
    ]);
  });

  it("patterns under the budget each but over 25,000 together are PLAN_SHAPE at the one that passes it", () => {
    const properties = Object.fromEntries(
      [0, 1, 2].map((i) => [
        `p${i}`,
        { type: "string", pattern: `^${"a{1000}".repeat(9)}${"b".repeat(i)}$` },
      ]),
    );
    expect(found({ properties }, {})).toEqual([
      {
        code: "PLAN_SHAPE",
        pointer: "/inputSchema/properties/p2/pattern",
        message: expect.stringContaining(
          "the schema's patterns compile to about 27,009 RE2 instructions together, over the 25,000 one schema may use",
        ),
      },
    ]);
  });

  it("a schema of zod's string formats and common patterns is accepted and checks its values", () => {
    const schema = z.toJSONSchema(
      z.object({
        email: z.email(),
        id: z.uuid(),
        at: z.iso.datetime(),
        ip: z.ipv6(),
        site: z.url(),
        code: z.string().regex(/^[a-z]{2,64}$/),
        day: z.string().regex(/\d{4}-\d{2}-\d{2}/),
      }),
    ) as JsonObject;
    const input = {
      email: "a@example.com",
      id: "123e4567-e89b-12d3-a456-426614174000",
      at: "2026-11-28T00:00:00Z",
      ip: "::1",
      site: "https://example.com",
      code: "ab",
      day: "2026-11-28",
    };
    expect(found(schema, input)).toEqual([]);
    expect(found(schema, { ...input, code: "A" }).map((d) => [d.code, d.pointer])).toEqual([
      ["PARAM_INVALID", "/inputSchema/properties/code/pattern"],
    ]);
  });
});
