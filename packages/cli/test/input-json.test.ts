import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { expectOneLineError, fixture, obelisk, obeliskJson, tempDir } from "./cli-harness.js";

type Json = Record<string, unknown>;

const tools = fixture("tools.js");

describe.concurrent("--input and --value are read as strictly as a plan file", { timeout: 120_000 }, () => {
  it("a repeated key is refused (exit 2) naming the flag, the key and its pointer; nothing is created", async () => {
    const dir = tempDir();
    const cases: [string[], string][] = [
      [
        ["state", "set", "--ref", "†state.a", "--value", '{"by":"ops","by":"eve"}'],
        '--value: the key "by" occurs twice in one object, at /by',
      ],
      [
        ["run", fixture("shout-plan.json"), "--tools", tools, "--input", '{"word":"a","word":"b"}'],
        'inline --input: the key "word" occurs twice in one object, at /word',
      ],
    ];
    for (const [args, message] of cases) {
      const result = await obeliskJson(args, dir);
      expectOneLineError(result, 2);
      expect((result.json.error as Json).message).toContain(message);
      expect((result.json.error as Json).message).toContain("JSON.parse would silently keep the last");
    }
    expect(existsSync(join(dir, ".obelisk"))).toBe(false);
  });

  it("an integer beyond ±2^53 is refused, in a file with its line and column", async () => {
    const dir = tempDir();
    const file = join(dir, "big.json");
    writeFileSync(file, '{\n  "type": "input",\n  "input": { "word": "x", "id": 12345678901234567890 }\n}\n');
    const input = await obelisk(
      ["validate", fixture("shout-plan.json"), "--tools", tools, "--input", file],
      dir,
    );
    expectOneLineError(input, 2);
    expect(input.stderr).toContain(
      `--input file ${file}: the number 12345678901234567890 cannot be held exactly (it is beyond ±2^53), at /input/id (line 3, column 33)`,
    );
    const value = await obelisk(
      ["state", "set", "--ref", "†state.a", "--value", "[1, 9007199254740993]"],
      dir,
    );
    expectOneLineError(value, 2);
    expect(value.stderr).toContain("--value: the number 9007199254740993 cannot be held exactly");
    expect(value.stderr).toContain("at /1");
    // 2^53 itself, -0 and a string that looks like a member are JSON.parse's reading exactly
    const fine = await obeliskJson(
      [
        "state",
        "set",
        "--store",
        "memory",
        "--ref",
        "†state.a",
        "--value",
        '[9007199254740992, 1e-5, 0, "a\\":b"]',
      ],
      dir,
    );
    expect(fine.code).toBe(0);
    expect(fine.json.value).toEqual([9007199254740992, 0.00001, 0, 'a":b']);
  });
});
