import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ObeliskError } from "@obelisk/core";
import { describe, expect, it } from "vitest";
import { sniffFormat } from "./output.js";
import { parseInput, parseJsonValue } from "./parse-input.js";
import { oneLine } from "./usage-error.js";

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
    expect(parseInput('{"a":1}', dir)).toEqual({ a: 1 });
    expect(parseInput('{"type":"input","input":{"a":1}}', dir)).toEqual({ type: "input", input: { a: 1 } });
    expect(parseInput("input.json", dir)).toEqual({ userName: "Ada" });
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
