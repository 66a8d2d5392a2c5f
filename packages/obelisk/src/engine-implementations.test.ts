import { describe, expect, it } from "vitest";
import { thrownError } from "./__fixtures__/error-codes.js";
import { createEngine, type EngineOptions, type SpecFormTool, type ToolContext } from "./index.js";

/** The spec's own tool form (SPEC §9): a JSON Schema with a `_tool` const; its implementation is given apart. */
const verifyUser = {
  type: "object",
  description: "Checks a user id",
  properties: {
    _tool: { const: "verifyUser" },
    userId: { type: "string" },
    _outputPath: { pattern: "^†state\\.user\\." },
    _output: { type: "object", properties: { ok: { type: "boolean" } }, required: ["ok"] },
  },
  required: ["_tool", "userId"],
  additionalProperties: false,
} satisfies SpecFormTool;

const plan = [{ _tool: "verifyUser", userId: "u1", _outputPath: "†state.user.verified" }];

/** The error `createEngine` throws for these options (fails the test when it accepts them). */
const refusal = (options: Record<string, unknown>) =>
  thrownError(() => createEngine({ tools: [verifyUser], ...options } as EngineOptions));

describe("createEngine({ tools, implementations }): the spec's tool form with its implementation (SPEC §9)", () => {
  it("runs a plan end to end: the call succeeds and its value is in state", async () => {
    const seen: { args: unknown; attempt: number }[] = [];
    const engine = createEngine({
      tools: [verifyUser],
      implementations: {
        verifyUser: async (args: { userId: string }, ctx: ToolContext) => {
          seen.push({ args, attempt: ctx.attempt });
          return { ok: args.userId === "u1" };
        },
      },
    });
    expect(engine.registry.get("verifyUser")?.latent).toBe(false);
    const result = await engine.run(plan, { threadId: "t" });
    expect(result.status).toBe("succeeded");
    expect(Object.values(result.calls).map((call) => call.status)).toEqual(["succeeded"]);
    expect(result.state).toEqual({ user: { verified: { ok: true } } });
    expect(seen).toEqual([{ args: { userId: "u1" }, attempt: 1 }]);
    await engine.close();
  });

  it("an object of tools by name takes implementations the same way", async () => {
    const engine = createEngine({
      tools: { verifyUser },
      implementations: { verifyUser: () => ({ ok: false }) },
    });
    const result = await engine.run(plan);
    expect(result.status).toBe("succeeded");
    expect(result.state).toEqual({ user: { verified: { ok: false } } });
    await engine.close();
  });

  it("without implementations the spec-form tool stays latent: its call ends deferred", async () => {
    const engine = createEngine({ tools: [verifyUser] });
    const result = await engine.run(plan);
    expect(Object.values(result.calls).map((call) => call.status)).toEqual(["deferred"]);
    await engine.close();
  });

  it.each<[string, Record<string, unknown>, string]>([
    [
      "implementations not an object",
      { implementations: [() => 1] },
      "implementations must be an object of functions by tool name (got an array)",
    ],
    [
      "an implementation that is not a function",
      { implementations: { verifyUser: "verify.js" } },
      "implementations.verifyUser must be a function (args, ctx) => value (got a string)",
    ],
    [
      "a key that names no tool",
      { implementations: { verifyUsr: () => 1 } },
      "implementations.verifyUsr names no tool (tools: verifyUser)",
    ],
    [
      "a tool with its own run and an implementation",
      { tools: [{ name: "verifyUser", run: () => 1 }], implementations: { verifyUser: () => 2 } },
      'tool "verifyUser" has its own run and an implementation in implementations.verifyUser: which one runs is ambiguous',
    ],
  ])("%s: USAGE", (_label, options, message) => {
    expect(refusal(options)).toMatchObject({ code: "USAGE", message });
  });

  it("a misspelt key names the nearest tool as hint", () => {
    expect(refusal({ implementations: { verifyUsr: () => 1 } }).hint).toBe('did you mean "verifyUser"?');
  });
});
