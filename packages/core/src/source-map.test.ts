import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parsePlanText } from "./parse-plan-text.js";

const text = readFileSync(new URL("./__fixtures__/plan-canonical.json", import.meta.url), "utf8");
const lines = text.split("\n");
/** 1-based line and column of the first occurrence of `needle` in the fixture. */
const locate = (needle: string, from = 0) => {
  const offset = text.indexOf(needle, from);
  const before = text.slice(0, offset).split("\n");
  return { line: before.length, column: (before.at(-1) ?? "").length + 1, offset };
};

describe("SourceMap", () => {
  const { sourceMap } = parsePlanText(text);

  it("locates values by pointer (the value, not the key)", () => {
    expect(sourceMap?.positionOf("")).toMatchObject({ line: 1, column: 1, length: text.trimEnd().length });
    expect(sourceMap?.positionOf("/id")).toMatchObject({ ...locate('"greet"'), length: 7 });
    expect(sourceMap?.positionOf("/plan/0/_tool")).toMatchObject(locate('"fetchUser"'));
    expect(sourceMap?.positionOf("/plan/1")).toMatchObject(locate("{\n      "));
    expect(sourceMap?.positionOf("/plan/1/count")).toMatchObject({ ...locate("3\n"), length: 1 });
    expect(lines[sourceMap!.positionOf("/plan/1/name")!.line - 1]).toContain('"name": "†state.user.name"');
  });

  it("returns undefined for pointers that do not exist", () => {
    expect(sourceMap?.positionOf("/plan/2")).toBeUndefined();
    expect(sourceMap?.positionOf("/nope")).toBeUndefined();
    expect(sourceMap?.positionOf("/plan/0/_tool/x")).toBeUndefined();
  });

  it("maps offsets to lines for \\n, \\r\\n and \\r", () => {
    const map = parsePlanText('[\r\n{"_tool":"a"},\r{"_tool":"b"}\n]').sourceMap;
    expect(map?.positionOf("/0")).toMatchObject({ line: 2, column: 1 });
    expect(map?.positionOf("/1/_tool")).toMatchObject({ line: 3, column: 10 });
    expect(map?.positionOfOffset(10_000)).toMatchObject({ line: 4, column: 2 });
    expect(map?.positionOfOffset(-5)).toMatchObject({ line: 1, column: 1, offset: 0 });
  });

  it("takes the last of duplicate keys, like JSON.parse", () => {
    const map = parsePlanText('{"_tool":"a","x":1,"x":22}').sourceMap;
    expect(map?.positionOf("/x")).toMatchObject({ column: 24, length: 2 });
  });
});
