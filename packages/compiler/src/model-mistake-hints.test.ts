import type { Diagnostic, JsonObject } from "@obelisk/core";
import { describe, expect, it } from "vitest";
import { batchAndStreamed } from "./__fixtures__/batch-and-streamed.js";
import { exampleTools } from "./__fixtures__/tools.js";
import type { CompileContext } from "./compiled-plan.js";
import { createToolRegistry } from "./tool-registry.js";

const registry = createToolRegistry(exampleTools);
const shape = (diagnostics: readonly Diagnostic[]) =>
  diagnostics.map((d) => ({ code: d.code, severity: d.severity, pointer: d.pointer, hint: d.hint }));

/** The diagnostics of `calls`, batch and streamed (they must agree). */
const diagnosticsOf = (calls: JsonObject[], context: CompileContext = { state: {} }) =>
  batchAndStreamed(registry, calls, context, shape);

const error = (code: string, pointer: string, hint: string) => ({ code, severity: "error", pointer, hint });

describe("the mistakes models make get the right form in the hint (decision 0097, review s40 r2)", () => {
  it("#4 †state.<id> of a call without _outputPath: did you mean †calls.<id>", () => {
    const fetch = { _tool: "fetchUser", _id: "u", userId: "x" };
    expect(diagnosticsOf([fetch, { _tool: "log", message: "†state.u.name" }])).toEqual([
      error(
        "REF_UNRESOLVED",
        "/plan/1/message",
        `did you mean "†calls.u.name"? ("u" is a call's id: a call's output is read as †calls.<id> unless its _outputPath writes it to the state)`,
      ),
    ]);
    // on a later turn: the thread holds †calls.u
    const later = { state: {}, callOutputs: new Set(["u"]) };
    expect(diagnosticsOf([{ _tool: "log", message: "†state.u.name" }], later)[0]?.hint).toMatch(
      /^did you mean "†calls\.u\.name"\?/,
    );
    // a call that writes the state: read where it writes
    const writes = { ...fetch, _outputPath: "†state.user" };
    expect(diagnosticsOf([writes, { _tool: "log", message: "†state.u.name" }])[0]?.hint).toBe(
      `"u" is a call's id, not a name in the state: that call writes †state.user; read there (e.g. †state.user.name)`,
    );
  });

  it("#2 a dagger look-alike in _outputPath", () => {
    expect(diagnosticsOf([{ _tool: "log", message: "m", _outputPath: "\u2021state.user" }])).toEqual([
      error(
        "OUTPUT_PATH_SYNTAX",
        "/plan/0/_outputPath",
        'did you mean "†state.user"? (every reference starts with "†")',
      ),
    ]);
  });

  it("#8 _outputPath as a list, †state.users[], _retry: 3, ??", () => {
    expect(diagnosticsOf([{ _tool: "log", message: "m", _outputPath: ["†state.a", "†state.b"] }])).toEqual([
      error(
        "OUTPUT_PATH_SYNTAX",
        "/plan/0/_outputPath",
        'write one string: "_outputPath": "†state.a && †state.b" ("&&" writes the output to every target)',
      ),
    ]);
    // items without their dagger get it: the hint is a path that compiles (review s40 rev1 #6)
    expect(diagnosticsOf([{ _tool: "log", message: "m", _outputPath: ["state.a", "$state.b"] }])).toEqual([
      error(
        "OUTPUT_PATH_SYNTAX",
        "/plan/0/_outputPath",
        'write one string: "_outputPath": "†state.a && †state.b" ("&&" writes the output to every target)',
      ),
    ]);
    // a look-alike of the dagger is replaced, not kept after it (decision 0101)
    for (const items of [
      ["\u2021state.a", "+state.b"],
      ["&dagger;state.a", "$.state.b"],
      ["\\u2020state.a", "@state.b"],
    ])
      expect(diagnosticsOf([{ _tool: "log", message: "m", _outputPath: items }])).toEqual([
        error(
          "OUTPUT_PATH_SYNTAX",
          "/plan/0/_outputPath",
          'write one string: "_outputPath": "†state.a && †state.b" ("&&" writes the output to every target)',
        ),
      ]);
    expect(diagnosticsOf([{ _tool: "log", message: "m", _outputPath: "†state.users[]" }])).toEqual([
      error(
        "OUTPUT_PATH_SYNTAX",
        "/plan/0/_outputPath",
        'to add the call\'s output to the list, write "_outputPath": "†state.users" with "_outputMethod": "push"; to read an item, give its index: †state.users[0]',
      ),
    ]);
    expect(diagnosticsOf([{ _tool: "log", message: "m", _retry: 3 }])).toEqual([
      error(
        "CALL_SHAPE",
        "/plan/0/_retry",
        'write an object, e.g. "_retry": { "attempts": 3, "backoffMs": 500 } (its fields: attempts, backoffMs, factor, maxDelayMs, jitter)',
      ),
    ]);
    const context = { state: {}, input: { nick: "n", name: "m" } };
    expect(diagnosticsOf([{ _tool: "log", message: "†input.nick ?? †input.name" }], context)).toEqual([
      error(
        "REF_SYNTAX",
        "/plan/0/message",
        'write "||" for a fallback (the first operand that exists), not "??": "†input.nick || †input.name"',
      ),
    ]);
  });

  it("#5 parameters nested under params / arguments / input, description for _description", () => {
    for (const wrapper of ["params", "arguments", "input"])
      expect(diagnosticsOf([{ _tool: "fetchUser", [wrapper]: { userId: "u1" } }])).toContainEqual(
        error(
          "PARAM_UNKNOWN",
          `/plan/0/${wrapper}`,
          `write { "_tool": "fetchUser", …its arguments as keys }: a plan call takes its parameters as keys of the call itself, not inside "${wrapper}"`,
        ),
      );
    expect(diagnosticsOf([{ _tool: "fetchUser", userId: "u1", description: "get the user" }])).toEqual([
      error(
        "PARAM_UNKNOWN",
        "/plan/0/description",
        'did you mean "_description"? (a call\'s description is the meta-property "_description")',
      ),
    ]);
  });

  it("#5 PARAM_MISSING beside parameters nested under params / arguments names the same fix (decision 0101)", () => {
    const where = (key: string) =>
      `a plan call takes its parameters as keys of the call itself, not inside "${key}"`;
    // zod tool: PARAM_UNKNOWN on the nesting key, PARAM_MISSING for what it holds
    expect(diagnosticsOf([{ _tool: "fetchUser", params: { userId: "u1" } }])).toEqual([
      error(
        "PARAM_MISSING",
        "/plan/0",
        `"userId" is inside "params": write it as a key of the call, { "_tool": "fetchUser", "userId": … } (${where("params")})`,
      ),
      error(
        "PARAM_UNKNOWN",
        "/plan/0/params",
        `write { "_tool": "fetchUser", …its arguments as keys }: ${where("params")}`,
      ),
    ]);
    // a JSON Schema tool that takes extra keys: no PARAM_UNKNOWN, so PARAM_MISSING alone says it
    expect(diagnosticsOf([{ _tool: "generateSummary", arguments: { txt: "t" } }])).toEqual([
      error(
        "PARAM_MISSING",
        "/plan/0",
        `${where("arguments")}: write { "_tool": "generateSummary", "text": … }`,
      ),
    ]);
    // a closed JSON Schema (ajv's PARAM_UNKNOWN) gets the nesting key's fix too
    expect(diagnosticsOf([{ _tool: "add", args: { a: 1, b: 2 } }])).toEqual([
      error(
        "PARAM_MISSING",
        "/plan/0",
        `"a" is inside "args": write it as a key of the call, { "_tool": "add", "a": … } (${where("args")})`,
      ),
      error(
        "PARAM_MISSING",
        "/plan/0",
        `"b" is inside "args": write it as a key of the call, { "_tool": "add", "b": … } (${where("args")})`,
      ),
      error(
        "PARAM_UNKNOWN",
        "/plan/0/args",
        `write { "_tool": "add", …its arguments as keys }: ${where("args")}`,
      ),
    ]);
    // nothing nested: PARAM_MISSING keeps no hint
    expect(
      diagnosticsOf([{ _tool: "fetchUser", params: "x" }]).find((d) => d.code === "PARAM_MISSING"),
    ).toEqual({
      code: "PARAM_MISSING",
      severity: "error",
      pointer: "/plan/0",
      hint: undefined,
    });
  });

  const warning = (pointer: string, hint: string) => ({
    code: "REF_SUSPICIOUS",
    severity: "warning",
    pointer,
    hint,
  });

  it("#1 a template slot without the dagger, naming known data or a path the plan writes", () => {
    const context = { state: {}, input: { topic: "ai" } };
    for (const text of ["news about {{input.topic}}", "{input.topic}", "news about {input.topic} today"]) {
      const slot = text.includes("{{") ? "{{input.topic}}" : "{input.topic}";
      expect(diagnosticsOf([{ _tool: "log", message: text }], context)).toEqual([
        warning("/plan/0/message", `write "{†input.topic}" (a template slot), not "${slot}"`),
      ]);
    }
    const fetch = { _tool: "fetchUser", userId: "u1", _outputPath: "†state.user" };
    for (const text of ["About {state.user.name}", "About {{state.user.name}}"])
      expect(diagnosticsOf([fetch, { _tool: "log", message: text }])).toEqual([
        warning(
          "/plan/1/message",
          `write "{†state.user.name}" (a template slot), not "${text.slice(6)}" (this plan writes that path)`,
        ),
      ]);
  });

  it("#1 ordinary braces stay silent: JSON text, prose, a slot naming nothing known", () => {
    const context = { state: {}, input: { topic: "ai" } };
    for (const text of [
      '{"input": {"topic": 1}}',
      "use {input} and {state}",
      "{input.other}",
      "a {state.user.name} nobody writes",
    ])
      expect(diagnosticsOf([{ _tool: "log", message: text }], context)).toEqual([]);
  });

  it("#2 a dagger look-alike before known data: did you mean the reference", () => {
    const context = { state: {}, input: { userId: "u1" } };
    for (const text of [
      "\u2021input.userId",
      "+input.userId",
      "@input.userId",
      "&dagger;input.userId",
      "\\u2020input.userId",
    ])
      expect(diagnosticsOf([{ _tool: "log", message: text }], context)).toEqual([
        warning("/plan/0/message", 'did you mean "†input.userId"?'),
      ]);
    expect(diagnosticsOf([{ _tool: "log", message: "+input.other" }], context)).toEqual([]);
    const fetch = { _tool: "fetchUser", userId: "u1", _outputPath: "†state.user" };
    expect(diagnosticsOf([fetch, { _tool: "log", message: "\u2021state.user.name" }])).toEqual([
      warning("/plan/1/message", 'did you mean "†state.user.name"? (this plan writes that path)'),
    ]);
  });

  it("#8 text read where an integer is needed: REF_TYPE_MISMATCH says no conversion is made", () => {
    const context = { state: {}, input: { n: "5" } };
    expect(diagnosticsOf([{ _tool: "add", a: "†input.n", b: 1 }], context)).toEqual([
      error(
        "REF_TYPE_MISMATCH",
        "/plan/0/a",
        'a reference passes the value as it is, with no conversion from text: read a value of type number, or write the value itself (5, not "5")',
      ),
    ]);
  });

  it("#5 outputPath beside a misspelt tool key is the misspelt meta key, not a parameter's reference", () => {
    const meta = {
      code: "PARAM_UNKNOWN",
      severity: "error",
      pointer: "/plan/0/outputPath",
      hint: 'did you mean "_outputPath"?',
    };
    const spelt = diagnosticsOf([{ tool: "fetchUser", userId: "u1", outputPath: "†state.user" }]);
    expect(spelt.map(({ code }) => code)).toEqual(["CALL_SHAPE", "PARAM_UNKNOWN"]);
    expect(spelt[1]).toEqual(meta);
    const unknown = diagnosticsOf([{ _tool: "fetchUsr", userId: "u1", outputPath: "†state.user" }]);
    expect(unknown.map(({ code }) => code)).toEqual(["TOOL_UNKNOWN", "PARAM_UNKNOWN"]);
    expect(unknown[1]).toEqual(meta);
  });
});
