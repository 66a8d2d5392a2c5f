import { describe, expect, it } from "vitest";
import { parseStoredReference } from "./parse-stored-reference.js";
import { STORED_REFERENCE_SCHEMA } from "./stored-reference-schema.js";

const pattern = new RegExp(STORED_REFERENCE_SCHEMA.pattern as string, "u");
const parses = (text: string): boolean => {
  try {
    parseStoredReference(text);
    return true;
  } catch {
    return false;
  }
};

const SAMPLES = [
  "†state",
  "†state.user",
  "†state.a[0].b",
  '†state["a b"]',
  "†calls.c1",
  "†calls.c1.items[2]",
  '†calls["c 1"]',
  "state.user",
  "$tool_output.c1",
  "†input.x",
  "†calls",
  "†calls[0]",
  "†statex",
  "†stat.x",
  "",
  "†",
  "{†state.x}",
  "x †state.y",
];

describe("parseStoredReference and STORED_REFERENCE_SCHEMA", () => {
  it("the schema's pattern accepts every reference the parser accepts (it only guides; the parser decides)", () => {
    for (const text of SAMPLES) if (parses(text)) expect([text, pattern.test(text)]).toEqual([text, true]);
    expect(SAMPLES.filter((text) => !pattern.test(text)).every((text) => !parses(text))).toBe(true);
  });

  it("hints at the dagger a reference lacks, and at †calls for the legacy alias", () => {
    expect(() => parseStoredReference("state.user.name")).toThrow(
      expect.objectContaining({ code: "REF_SYNTAX", hint: expect.stringContaining('"†state.user.name"') }),
    );
    expect(() => parseStoredReference("$tool_output.c1")).toThrow(
      expect.objectContaining({ code: "REF_SYNTAX", hint: expect.stringContaining('"†calls.c1"') }),
    );
    for (const text of ["$state.hits", "$.state.hits", `\${state.hits}`, "@state.hits"])
      expect(() => parseStoredReference(text), text).toThrow(
        expect.objectContaining({
          code: "REF_SYNTAX",
          hint: expect.stringContaining('did you mean "†state.hits"?'),
        }),
      );
    expect(() => parseStoredReference("†calls.c1", true)).toThrow(
      expect.objectContaining({
        code: "OUTPUT_PATH_READONLY",
        hint: expect.stringContaining("write only †state"),
      }),
    );
    expect(() => parseStoredReference("input.x")).toThrow(
      expect.not.objectContaining({ hint: expect.anything() }),
    );
    expect(() => parseStoredReference("†input.x")).toThrow(
      expect.objectContaining({ code: "USAGE", hint: expect.stringContaining("†calls.<callId>") }),
    );
  });
});
