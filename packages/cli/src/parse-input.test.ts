import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ObeliskError } from "@obelisk/core";
import { describe, expect, it } from "vitest";
import { sniffFormat } from "./output.js";
import { parseInput, parseJsonValue } from "./parse-input.js";
import { oneLine } from "./usage-error.js";

/** The one-line message of the USAGE error `action` throws (with its hint, as the CLI prints it). */
function usageOf(action: () => unknown): string {
  try {
    action();
  } catch (error) {
    if (!ObeliskError.is(error) || error.code !== "USAGE") return "not a USAGE error";
    return error.hint === undefined ? error.message : `${error.message} (${error.hint})`;
  }
  return "nothing thrown";
}

function codeOf(action: () => unknown): string | undefined {
  try {
    action();
  } catch (error) {
    return ObeliskError.is(error) ? error.code : "not an ObeliskError";
  }
  return undefined;
}

describe("parseInput", () => {
  const dir = mkdtempSync(join(tmpdir(), "obelisk-input-"));
  writeFileSync(join(dir, "input.json"), '{ "userName": "Ada" }');
  writeFileSync(join(dir, "bad.json"), "{ nope");

  it("accepts inline JSON objects, Input messages and files", () => {
    expect(parseInput('{"a":1}', dir)?.value).toEqual({ a: 1 });
    expect(parseInput('{"type":"input","input":{"a":1}}', dir)?.value).toEqual({
      type: "input",
      input: { a: 1 },
    });
    expect(parseInput("input.json", dir)?.value).toEqual({ userName: "Ada" });
    expect(parseInput(undefined, dir)).toBeUndefined();
  });

  it("rejects malformed JSON, missing files and non-objects as usage errors", () => {
    expect(codeOf(() => parseInput("{ nope", dir))).toBe("USAGE");
    expect(codeOf(() => parseInput("bad.json", dir))).toBe("USAGE");
    expect(codeOf(() => parseInput("missing.json", dir))).toBe("USAGE");
    expect(codeOf(() => parseInput("[1, 2]", dir))).toBe("USAGE");
  });
});

describe("parseJsonValue", () => {
  it("parses JSON and refuses bare words with a usage error", () => {
    expect(parseJsonValue('{"by":"ops"}', "--value")).toEqual({ by: "ops" });
    expect(parseJsonValue("true", "--value")).toBe(true);
    expect(codeOf(() => parseJsonValue("yes", "--value"))).toBe("USAGE");
  });

  it("refuses what the plan reader refuses: a repeated key, an integer beyond ±2^53, a number out of range", () => {
    expect(usageOf(() => parseJsonValue('{"a": {"b": 1, "b": 2}}', "--value"))).toBe(
      '--value: the key "b" occurs twice in one object, at /a/b (keep one of them: JSON.parse would silently keep the last)',
    );
    expect(usageOf(() => parseJsonValue('[{"a": 1, "a": 1}]', "--value"))).toContain(
      'the key "a" occurs twice',
    );
    expect(usageOf(() => parseJsonValue('{"id": -12345678901234567890}', "--value"))).toMatch(
      /^--value: the number -12345678901234567890 cannot be held exactly \(it is beyond ±2\^53\), at \/id \(write it as a string/,
    );
    expect(usageOf(() => parseJsonValue("9007199254740993", "--value"))).toMatch(
      /^--value: the number 9007199254740993 cannot be held exactly \(it is beyond ±2\^53\) \(/,
    );
    expect(usageOf(() => parseJsonValue("1e999", "--value"))).toBe(
      "--value holds a number out of range (Infinity): JSON numbers must be finite",
    );
    expect(usageOf(() => parseJsonValue('{"x": [-1e999]}', "--value"))).toBe(
      "--value holds a number out of range (-Infinity) at /x/0: JSON numbers must be finite",
    );
    expect(usageOf(() => parseJsonValue("[0, 1e-400]", "--value"))).toMatch(
      /^--value holds a number too small for a double \(1e-400\) at \/1: it would read as 0/,
    );
    // the first problem in the text is named (core's reader finds the last object's first)
    expect(usageOf(() => parseJsonValue('{"a": 1, "a": 2, "z": {"b": 1, "b": 2}}', "--value"))).toContain(
      "at /a ",
    );
  });

  it("accepts what JSON.parse reads exactly, also when it looks suspicious", () => {
    const exact =
      '[9007199254740992, 1152921504606846976, 1e-5, 0, -0, 0.5e-3, "re-run 1e-400", "k\\":", {"__proto__": 1}]';
    // as core reads a plan: -0 is 0 (JSON has one zero)
    expect(parseJsonValue(exact, "--value")).toEqual(
      JSON.parse(exact, (_key, value) => (Object.is(value, -0) ? 0 : value)),
    );
    expect(parseJsonValue('{"a": {"x": 1}, "b": {"x": 2}}', "--value")).toEqual({ a: { x: 1 }, b: { x: 2 } });
  });
});

describe("parseInput reads as strictly", () => {
  const dir = mkdtempSync(join(tmpdir(), "obelisk-input-"));
  writeFileSync(
    join(dir, "twice.json"),
    '\ufeff{\n  "type": "input",\n  "input": { "a": 1,\n    "a": 2 }\n}\n',
  );

  it("names the flag, the key, its pointer and, in a file, its line and column (after a byte order mark)", () => {
    expect(usageOf(() => parseInput("twice.json", dir))).toMatch(
      /^--input file twice\.json: the key "a" occurs twice in one object, at \/input\/a \(line 4, column 10\)/,
    );
    expect(usageOf(() => parseInput('{"n": 123456789012345678901234567890}', dir))).toMatch(
      /^inline --input: the number 123456789012345678901234567890 cannot be held exactly .*, at \/n \(/,
    );
  });

  it("keeps where an inline input came from, and can locate its pointers", () => {
    const input = parseInput(' {"a": {"b": 1}}', dir);
    expect(input).toMatchObject({ value: { a: { b: 1 } }, name: "<--input>", inline: true });
    expect(input?.sourceMap()?.positionOf("/a/b")).toMatchObject({ line: 1, column: 13 });
    writeFileSync(join(dir, "plain.json"), '{ "a": 1 }');
    expect(parseInput("plain.json", dir)).toMatchObject({ name: "plain.json", inline: false });
  });
});

describe("helpers", () => {
  it("finds --format json in raw arguments", () => {
    expect(sniffFormat(["run", "--format", "json"])).toBe("json");
    expect(sniffFormat(["run", "--format=json"])).toBe("json");
    expect(sniffFormat(["run", "--format", "text"])).toBe("text");
  });

  it("collapses multi-line messages and drops stack frames", () => {
    expect(oneLine("boom\n    at foo (x.js:1:1)\n  more")).toBe("boom more");
  });
});
