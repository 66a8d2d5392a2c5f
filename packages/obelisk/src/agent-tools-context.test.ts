import { describe, expect, it } from "vitest";
import { thrownError } from "./__fixtures__/error-codes.js";
import { agentTools, createEngine, type Diagnostic, defineTool } from "./index.js";

// Decision 0077: agentTools gave run_plan no way to the host kinds' values (RunOptions.context), so a plan
// reading †secrets — even where its readers (0073) allow — was refused by run_plan, while validate_plan,
// judging without a context, answered it valid.

const SECRET = "sk-live-SECRET-123";

/** `callApi` keeps what it received; `secrets` may be read by `callApi.auth` only. */
function engineWith() {
  const received: unknown[] = [];
  const callApi = defineTool({
    name: "callApi",
    input: { type: "object", properties: { auth: { type: "string" }, path: { type: "string" } } },
    run: (args) => {
      received.push(args);
      return { ok: true };
    },
  });
  const engine = createEngine({
    tools: [callApi],
    kinds: [{ kind: "secrets", readers: { callApi: ["auth"] } }, { kind: "user" }],
  });
  return { engine, received };
}

const plan = {
  type: "plan",
  plan: [{ _tool: "callApi", auth: "†secrets.apiKey", path: "/u/{†user.name}", _outputPath: "†state.r" }],
};

describe("agentTools' context: the host kinds' values of its runs", () => {
  it("run_plan runs with them and validate_plan judges with them; the model's answers never show them", async () => {
    const { engine, received } = engineWith();
    const given = { secrets: { apiKey: SECRET }, user: { name: "Ada" } };
    const [validatePlan, runPlan] = agentTools(engine, "t", { context: given });
    given.user.name = "changed after"; // read once, when the tools are made
    const validation = await validatePlan.execute({ plan });
    expect(validation).toMatchObject({ ok: true, diagnostics: [] });
    const answer = await runPlan.execute({ plan });
    expect(answer).toMatchObject({ status: "succeeded" });
    expect(received).toEqual([{ auth: SECRET, path: "/u/Ada" }]);
    expect(JSON.stringify([validation, answer])).not.toContain(SECRET);
    // the readers still hold: the key in another parameter is refused by both
    const leaking = { type: "plan", plan: [{ _tool: "callApi", auth: "x", path: "/{†secrets.apiKey}" }] };
    const refused = (await validatePlan.execute({ plan: leaking })) as { diagnostics: readonly Diagnostic[] };
    expect(refused.diagnostics).toMatchObject([{ code: "REF_KIND_FORBIDDEN", pointer: "/plan/0/path" }]);
    expect(await runPlan.execute({ plan: leaking })).toMatchObject({ error: { code: "PLAN_INVALID" } });
    expect(received).toHaveLength(1);
    await engine.close();
  });

  it("without it, validate_plan refuses a plan reading a host kind as run_plan does (it has no value)", async () => {
    const { engine, received } = engineWith();
    const [validatePlan, runPlan] = agentTools(engine, "t");
    const validation = (await validatePlan.execute({ plan })) as {
      ok: boolean;
      diagnostics: readonly Diagnostic[];
    };
    expect(validation.ok).toBe(false);
    expect(validation.diagnostics.map((d) => [d.code, d.pointer])).toEqual([
      ["REF_UNRESOLVED", "/plan/0/auth"],
      ["REF_UNRESOLVED", "/plan/0/path"],
    ]);
    expect(await runPlan.execute({ plan })).toMatchObject({ error: { code: "PLAN_INVALID" } });
    expect(received).toEqual([]);
    await engine.close();
  });

  it("is checked when the tools are made: USAGE naming agentTools, with the nearest kind", () => {
    const { engine } = engineWith();
    const usage = (context: unknown) => thrownError(() => agentTools(engine, "t", { context } as never));
    expect(usage([1])).toMatchObject({ code: "USAGE", message: expect.stringMatching(/^agentTools' /) });
    expect(usage({ secret: {} })).toMatchObject({
      code: "USAGE",
      message: expect.stringContaining('agentTools\' context: the context names "secret"'),
      hint: 'did you mean "secrets"?',
    });
    expect(usage({ user: { at: new Date(0) } })).toMatchObject({ code: "USAGE" });
    const throwing = {
      get user() {
        throw new Error("boom");
      },
    };
    expect(usage(throwing)).toMatchObject({ code: "USAGE", message: expect.stringContaining("agentTools") });
    expect(usage(null)).toMatchObject({ code: "USAGE" });
  });
});
