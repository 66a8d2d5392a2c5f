import type { Diagnostic, JsonObject } from "@obelisk/core";
import { describe, expect, it } from "vitest";
import { batchAndStreamed } from "./__fixtures__/batch-and-streamed.js";
import { exampleTools, specFormTool } from "./__fixtures__/tools.js";
import type { CompileContext } from "./compiled-plan.js";
import { createToolRegistry } from "./tool-registry.js";

const registry = createToolRegistry([...exampleTools, specFormTool]);
/** Errors only: the latent sendEmail's LATENT_WITHOUT_OUTPUT warning is beside the point. */
const shape = (diagnostics: readonly Diagnostic[]) =>
  diagnostics
    .filter((d) => d.severity === "error")
    .map((d) => ({ code: d.code, pointer: d.pointer, hint: d.hint }));

/** The diagnostics of `calls`, batch and streamed (they must agree). */
const diagnosticsOf = (calls: JsonObject[], context: CompileContext = { state: {} }) =>
  batchAndStreamed(registry, calls, context, shape);

/** The one diagnostic of `calls`, whose hint must name an `_outputPath` that itself compiles. */
function hintOf(calls: JsonObject[], context?: CompileContext): string | undefined {
  const [first, ...others] = diagnosticsOf(calls, context);
  expect(others).toEqual([]);
  const suggested = /write "_outputPath": ("(?:[^"\\]|\\.)*")/.exec(first?.hint ?? "")?.[1];
  if (suggested !== undefined) {
    const last = calls[calls.length - 1] as JsonObject;
    expect(
      diagnosticsOf([...calls.slice(0, -1), { ...last, _outputPath: JSON.parse(suggested) }], context),
    ).toEqual([]);
  }
  return first?.hint;
}

const fetch = (outputPath: unknown): JsonObject => ({
  _tool: "fetchUser",
  _id: "u",
  userId: "x",
  _outputPath: outputPath as string,
});

describe("an _outputPath naming a tool or a call as its kind writes to †state (decision 0108)", () => {
  it("a tool's name: write under †state, and how another call reads it", () => {
    expect(hintOf([fetch("†fetchUser.profile")])).toBe(
      `"fetchUser" is a tool name, not a kind, and an _outputPath writes to the state: write "_outputPath": "†state.profile"; another call reads it as †state.profile`,
    );
    expect(hintOf([{ _tool: "log", message: "m", _outputPath: "†fetchUser.profile.name" }])).toMatch(
      /write "_outputPath": "†state\.profile\.name"; another call reads it as †state\.profile\.name$/,
    );
    // nothing or an index after the kind: under the kind's own name; a quoted name goes on under †state
    expect(hintOf([fetch("†fetchUser")])).toMatch(/write "_outputPath": "†state\.fetchUser";/);
    expect(hintOf([fetch("†fetchUser[0]")])).toMatch(/write "_outputPath": "†state\.fetchUser\[0\]";/);
    expect(hintOf([fetch('†fetchUser["a b"]')])).toMatch(/write "_outputPath": "†state\[\\"a b\\"\]";/);
  });

  it("the rest of the _outputPath is kept; a target that cannot be kept whole is named alone", () => {
    expect(hintOf([fetch("†fetchUser.profile && †state.copy")])).toMatch(
      /write "_outputPath": "†state\.profile && †state\.copy";/,
    );
    expect(hintOf([fetch("†fetchUser.profile && †state.approvals.x")])).toMatch(
      /write that target as "†state\.profile";/,
    );
  });

  it("a call's id, and a name models use for a call's output", () => {
    const named = { _tool: "fetchUser", _id: "u", userId: "x" };
    expect(hintOf([named, { _tool: "log", message: "m", _outputPath: "†u.profile" }])).toBe(
      `"u" is a call's id, not a kind, and an _outputPath writes to the state: write "_outputPath": "†state.profile"; another call reads it as †state.profile`,
    );
    expect(
      hintOf([{ _tool: "log", message: "m", _outputPath: "†u.profile" }], {
        state: {},
        callOutputs: new Set(["u"]),
      }),
    ).toMatch(
      /^"u" is a call's id, not a kind, and an _outputPath writes to the state: write "_outputPath": "†state\.profile";/,
    );
    // "did you mean †calls.u" was refused in turn: a call's output is not writable (OUTPUT_PATH_READONLY)
    expect(hintOf([fetch("†outputs.u")])).toBe(
      `"outputs" is no kind (a call's output is read as †calls.<id>), and an _outputPath writes to the state: write "_outputPath": "†state.u"; another call reads it as †state.u`,
    );
  });

  it("a suggestion the tool's own _outputPath rule refuses is not made", () => {
    const send = { _tool: "sendEmail", to: "a@b.c" };
    expect(hintOf([{ ...send, _outputPath: "†sendEmail.mail.x" }])).toBe(
      `"sendEmail" is a tool name, not a kind, and an _outputPath writes to the state: write "_outputPath": "†state.mail.x"; another call reads it as †state.mail.x`,
    );
    expect(hintOf([{ ...send, _outputPath: "†sendEmail.profile" }])).toBe("known kinds: input, state, calls");
  });

  it("other unknown kinds keep the parser's hint", () => {
    expect(hintOf([fetch("†stat.profile")])).toBe('did you mean "state"?');
    expect(hintOf([fetch("†nothing.profile")])).toBe("known kinds: input, state, calls");
  });

  it("the same in the list form", () => {
    expect(hintOf([fetch(["†fetchUser.profile", "‡state.copy"])])).toBe(
      'write one string: "_outputPath": "†state.profile && †state.copy" ("&&" writes the output to every target)',
    );
    // no suggestion that is itself refused (it was "†'state.a")
    expect(hintOf([fetch(["'state.a"])])).toBe(
      'write one string, not a list: a reference like "†state.result"',
    );
  });
});
