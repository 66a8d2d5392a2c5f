import type { Diagnostic, JsonObject } from "@obelisk/core";
import { describe, expect, it } from "vitest";
import { batchAndStreamed } from "./__fixtures__/batch-and-streamed.js";
import { exampleTools } from "./__fixtures__/tools.js";
import { compile } from "./compile.js";
import type { CompileContext } from "./compiled-plan.js";
import { MAX_NEAR_HINTS } from "./near-reference-hint.js";
import { createToolRegistry } from "./tool-registry.js";

const registry = createToolRegistry(exampleTools);
const shape = (diagnostics: readonly Diagnostic[]) =>
  diagnostics.map((d) => ({ code: d.code, pointer: d.pointer, hint: d.hint }));

/** The hints of `calls`' diagnostics, batch and streamed (they must agree). */
const diagnosticsOf = (calls: JsonObject[], context: CompileContext = { state: {} }) =>
  batchAndStreamed(registry, calls, context, shape);

const log = (message: string): JsonObject => ({ _tool: "log", message });
const unknownKind = (pointer: string, hint: string) => [{ code: "REF_KIND_UNKNOWN", pointer, hint }];

describe("a call's id or a tool's name used as a reference's kind gets the call's reference (decision 0101)", () => {
  const fetch = { _tool: "fetchUser", _id: "u", userId: "x" };

  it("a tool's name: its call's output, the path kept", () => {
    expect(diagnosticsOf([fetch, log("†fetchUser.name")])).toEqual(
      unknownKind(
        "/plan/1/message",
        `"fetchUser" is a tool name, not a kind; its call has the id "u": read †calls.u.name`,
      ),
    );
    expect(
      diagnosticsOf([{ ...fetch, _outputPath: "†state.user" }, log("Hi {†fetchUser.address.city}!")]),
    ).toEqual(
      unknownKind(
        "/plan/1/message",
        `"fetchUser" is a tool name, not a kind; its call has the id "u": read †state.user.address.city`,
      ),
    );
    const unnamed = { _tool: "fetchUser", userId: "x" };
    expect(diagnosticsOf([unnamed, unnamed, log("†fetchUser.name")])[0]?.hint).toBe(
      `"fetchUser" is a tool name, not a kind: give that fetchUser call an "_id" and read †calls.<that id>.name (its automatic id "fetchUser$1" is numbered anew on every run)`,
    );
    expect(diagnosticsOf([log("†fetchUser.name")])).toEqual(
      unknownKind(
        "/plan/0/message",
        `"fetchUser" is a tool name, not a kind: a call's output is read as †calls.<its _id>.name (give the call an "_id"), or where its _outputPath writes`,
      ),
    );
  });

  it("a tool's calls added after an earlier hint are found by a later one", () => {
    const hints = diagnosticsOf([log("†fetchUser.name"), fetch, log("†fetchUser.name")]).map((d) => d.hint);
    expect(hints).toEqual([
      `"fetchUser" is a tool name, not a kind: a call's output is read as †calls.<its _id>.name (give the call an "_id"), or where its _outputPath writes`,
      `"fetchUser" is a tool name, not a kind; its call has the id "u": read †calls.u.name`,
    ]);
  });

  it("a call's id: †calls.<id>, or where the call writes", () => {
    expect(diagnosticsOf([fetch, log('†u["name"]')])).toEqual(
      unknownKind(
        "/plan/1/message",
        `did you mean "†calls.u.name"? ("u" is a call's id, not a kind: a call's output is read as †calls.<id>)`,
      ),
    );
    expect(diagnosticsOf([{ ...fetch, _outputPath: "†state.user" }, log("†u.name")])).toEqual(
      unknownKind(
        "/plan/1/message",
        `"u" is a call's id, not a kind: that call writes †state.user; read there (e.g. †state.user.name)`,
      ),
    );
    // a stored output (a later turn)
    const later = { state: {}, callOutputs: new Set(["u"]) };
    expect(diagnosticsOf([log("†u.name")], later)[0]?.hint).toMatch(/^did you mean "†calls\.u\.name"\?/);
  });

  it("a tool's name on a later turn: the stored outputs of its calls with automatic ids", () => {
    const later = { state: {}, callOutputs: new Set(["fetchUser$1", "other$1", "fetchUser$2"]) };
    const stored = `the outputs stored for its earlier calls: "fetchUser$2", "fetchUser$1": e.g. "†calls.fetchUser$2.name"`;
    expect(diagnosticsOf([log("†fetchUser.name")], later)).toEqual(
      unknownKind("/plan/0/message", `"fetchUser" is a tool name, not a kind; ${stored}`),
    );
    // †calls.<tool name> (decision 0097's not-covered case)
    expect(diagnosticsOf([log("†calls.fetchUser.name")], later)[0]).toEqual({
      code: "REF_UNRESOLVED",
      pointer: "/plan/0/message",
      hint: `"fetchUser" is a tool name, not a call id, and no call of this plan uses that tool; ${stored}`,
    });
  });

  it("†calls.<tool name> read by a call of that tool: not its own output, the stored ones", () => {
    const later = { state: {}, callOutputs: new Set(["log$7"]) };
    expect(diagnosticsOf([log("†calls.log")], later)).toEqual([
      {
        code: "REF_UNRESOLVED",
        pointer: "/plan/0/message",
        hint: `"log" is a tool name, not a call id, and no other call of this plan uses that tool; the output stored for its earlier call: "log$7": e.g. "†calls.log$7"`,
      },
    ]);
  });

  it("a plan gets at most MAX_NEAR_HINTS of them (a tool's calls are gathered over the whole plan)", () => {
    const plan = Array.from({ length: MAX_NEAR_HINTS + 1 }, () => log("†fetchUser.name"));
    const hints = compile({ type: "plan", plan }, registry).diagnostics.map((d) => d.hint ?? "");
    expect(hints.filter((hint) => hint.startsWith('"fetchUser" is a tool name'))).toHaveLength(
      MAX_NEAR_HINTS,
    );
  });

  it("any other unknown kind keeps its hint", () => {
    expect(diagnosticsOf([fetch, log("†stat.user")])).toEqual(
      unknownKind("/plan/1/message", 'did you mean "state"?'),
    );
    expect(diagnosticsOf([fetch, log("†v.name")])[0]?.hint).toMatch(/^known kinds: /);
  });
});
