import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { expectOneLineError, fixture, inProcess, inProcessJson, tempDir } from "./cli-harness.js";

type Json = Record<string, unknown>;

const tools = fixture("tools.js");
const cwd = tempDir();
/** A plan whose input schema asks for a name of at most 3 characters (the schema keyword on line 3). */
const plan = join(cwd, "named-plan.json");
writeFileSync(
  plan,
  `{
  "inputSchema": {
    "type": "object", "properties": { "name": { "type": "string", "maxLength": 3 } }, "required": ["name"]
  },
  "plan": [{ "_tool": "shout", "text": "†input.name" }]
}
`,
);
/** An Input message in a file: the name (a number) breaks both its own schema and the plan's. */
const inputFile = join(cwd, "message.json");
writeFileSync(
  inputFile,
  `{
  "type": "input",
  "input": { "name": 5 },
  "schema": { "properties": { "name": { "type": "string" } } }
}
`,
);

describe.concurrent("an --input that breaks a schema is located in the input, not in the plan", {
  timeout: 120_000,
}, () => {
  it("inline --input: at <--input>:line:column, the plan's rule in the hint (validate and run)", async () => {
    for (const command of ["validate", "run"]) {
      const args = [command, plan, "--tools", tools, "--input", '{"name":"Adalbert"}', "--store", "memory"];
      const text = await inProcess(args, cwd);
      expect(text.code).toBe(1);
      expect(text.stdout).toMatch(
        /^<--input>:1:9: error PARAM_INVALID: input at \/name breaks inputSchema: /m,
      );
      expect(text.stdout).toContain('  1 | {"name":"Adalbert"}\n    |         ^~~~~~~~~~\n');
      expect(text.stdout).toContain(
        `hint: the input is wrong, not the plan: it breaks ${plan}:3:80 (/inputSchema/properties/name/maxLength)`,
      );
      expect(text.stdout).not.toContain(`${plan}:1:1`);
      const json = await inProcessJson(args, cwd);
      expect(json.code).toBe(1);
      expect(json.json.diagnostics).toEqual([
        {
          code: "PARAM_INVALID",
          severity: "error",
          message: expect.any(String),
          pointer: "/inputSchema/properties/name/maxLength",
          input: { source: "inline", pointer: "/name", line: 1, column: 9 },
          // where `pointer` is in the plan file (decision 0090): the rule the hint names
          line: 3,
          column: 80,
        },
      ]);
    }
  });

  it("a missing property is located at the object that lacks it", async () => {
    const json = await inProcessJson(
      ["validate", plan, "--tools", tools, "--input", '{ "nom": "Ada" }'],
      cwd,
    );
    expect(json.json.diagnostics).toContainEqual(
      expect.objectContaining({
        pointer: "/inputSchema/required",
        input: { source: "inline", pointer: "", line: 1, column: 1 },
      }),
    );
  });

  it("an --input file: at file:line:column, below /input for an Input message, for its own schema too", async () => {
    const text = await inProcess(["validate", plan, "--tools", tools, "--input", inputFile], cwd);
    expect(text.code).toBe(1);
    const located = text.stdout.split("\n").filter((line) => line.includes("error PARAM_INVALID"));
    expect(located).toEqual([
      `${inputFile}:3:22: error PARAM_INVALID: input at /name breaks the Input message's schema: must be string`,
      `${inputFile}:3:22: error PARAM_INVALID: input at /name breaks inputSchema: must be string`,
    ]);
    expect(text.stdout).toContain('  3 |   "input": { "name": 5 },\n');
    expect(text.stdout).not.toContain(`${plan}:1:1`);
    const json = await inProcessJson(
      ["run", plan, "--tools", tools, "--input", inputFile, "--store", "memory"],
      cwd,
    );
    expect(json.code).toBe(1);
    const input = { source: "file", file: inputFile, pointer: "/input/name", line: 3, column: 22 };
    // (then the plan's own REF_TYPE_MISMATCH: an integer where shout needs a string, in the plan)
    expect((json.json.diagnostics as Json[]).slice(0, 2)).toEqual([
      expect.objectContaining({ pointer: "", input }),
      expect.objectContaining({ pointer: "/inputSchema/properties/name/type", input }),
    ]);
  });
});

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
      const result = await inProcessJson(args, dir);
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
    const input = await inProcess(
      ["validate", fixture("shout-plan.json"), "--tools", tools, "--input", file],
      dir,
    );
    expectOneLineError(input, 2);
    expect(input.stderr).toContain(
      `--input file ${file}: the number 12345678901234567890 cannot be held exactly (it is beyond ±2^53), at /input/id (line 3, column 33)`,
    );
    const value = await inProcess(
      ["state", "set", "--ref", "†state.a", "--value", "[1, 9007199254740993]"],
      dir,
    );
    expectOneLineError(value, 2);
    expect(value.stderr).toContain("--value: the number 9007199254740993 cannot be held exactly");
    expect(value.stderr).toContain("at /1");
    // 2^53 itself, -0 and a string that looks like a member are JSON.parse's reading exactly
    const fine = await inProcessJson(
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
