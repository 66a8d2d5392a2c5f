import { createMemoryStore } from "@obelisk/state";
import { describe, expect, it } from "vitest";
import { rejectionOf, thrownError } from "./__fixtures__/error-codes.js";
import {
  agentTools,
  createEngine,
  type Diagnostic,
  defineTool,
  type EngineOptions,
  type HostKind,
  ObeliskError,
} from "./index.js";

// Review s35 M4: a host kind (`†secrets`) reached any parameter of any tool the plan named; one template
// (`"text": "key={†secrets.apiKey}"` to a text tool) copied the key into state. `readers` scopes a kind.

const SECRET = "sk-live-SECRET-123";
const secrets = { apiKey: SECRET };
const context = { secrets, user: { name: "Ada" } };

/** `callApi` and `fmt` keep the arguments they received; `secrets` may be read by `callApi.auth` only. */
function engineWith(kinds: readonly HostKind[] = [{ kind: "secrets", readers: { callApi: ["auth"] } }]) {
  const received: unknown[] = [];
  const callApi = defineTool({
    name: "callApi",
    input: {
      type: "object",
      properties: { auth: { type: "string" }, path: { type: "string" }, headers: {}, items: {} },
    },
    run: (args) => {
      received.push(args);
      return { ok: true };
    },
  });
  const fmt = defineTool({
    name: "fmt",
    input: { type: "object", properties: { text: { type: "string" } } },
    run: (args) => {
      received.push(args);
      return (args as { text: string }).text.toUpperCase();
    },
  });
  const engine = createEngine({ tools: [callApi, fmt], kinds: [...kinds, { kind: "user" }] });
  return { engine, received };
}

/** The REF_KIND_FORBIDDEN diagnostics of a validation or a PLAN_INVALID error's data. */
const forbidden = (diagnostics: readonly Diagnostic[]) =>
  diagnostics.filter((diagnostic) => diagnostic.code === "REF_KIND_FORBIDDEN");

const HINT = "only callApi.auth may read †secrets: leave it out here";

describe("a host kind with readers is read only where they say (REF_KIND_FORBIDDEN)", () => {
  it("a template in another tool's parameter: run refuses the plan, nothing runs or is written", async () => {
    const { engine, received } = engineWith();
    const plan = [{ _tool: "fmt", _id: "leak", text: "key={†secrets.apiKey}", _outputPath: "†state.leak" }];
    const error = await rejectionOf(engine.run(plan, { threadId: "t", context }));
    expect(error.code).toBe("PLAN_INVALID");
    expect(error.message).toContain(
      'REF_KIND_FORBIDDEN at /0/text: parameter "text" of tool "fmt" may not read †secrets',
    );
    expect(forbidden((error.data as { diagnostics: Diagnostic[] }).diagnostics)).toEqual([
      {
        code: "REF_KIND_FORBIDDEN",
        severity: "error",
        message:
          'parameter "text" of tool "fmt" may not read †secrets: the host lets only some parameters read it',
        pointer: "/0/text",
        callId: "leak",
        hint: HINT,
      },
    ]);
    expect(received).toEqual([]);
    expect(await engine.get("t", "†state.leak")).toMatchObject({ found: false });
    await engine.close();
  });

  it("the listed parameter reads it (whole reference, template); other kinds stay unscoped", async () => {
    const { engine, received } = engineWith();
    // (the plan is refused when it also reads it elsewhere)
    const leaking = [{ _tool: "callApi", auth: "†secrets.apiKey", path: "{†secrets.apiKey}" }];
    expect((await engine.validate(leaking)).ok).toBe(false);
    const plan = {
      type: "plan",
      plan: [
        { _tool: "callApi", auth: "†secrets.apiKey", path: "/a", _outputPath: "†state.a" },
        {
          _tool: "callApi",
          auth: "Bearer {†secrets.apiKey}",
          path: "/b/{†user.name}",
          _outputPath: "†state.b",
        },
        { _tool: "fmt", text: "hi {†user.name}", _outputPath: "†state.c" },
      ],
    };
    const result = await engine.run(plan, { threadId: "t", context });
    expect(result.status).toBe("succeeded");
    expect(received).toEqual([
      { auth: SECRET, path: "/a" },
      { auth: `Bearer ${SECRET}`, path: "/b/Ada" },
      { text: "hi Ada" },
    ]);
    await engine.close();
  });

  it("at any depth of another parameter, in fallbacks and gates: one diagnostic per string, at the string", async () => {
    const { engine } = engineWith();
    const plan = {
      type: "plan",
      plan: [
        {
          _tool: "callApi",
          _id: "api",
          auth: "†secrets.apiKey",
          headers: { "x-key": "†secrets.apiKey", nested: [{ deep: "k={†secrets.apiKey}" }] },
          items: ["plain", "†state.nope || †secrets.apiKey", "†secrets.apiKey && †user.name"],
          path: "{†secrets.apiKey}{†secrets.other}",
        },
      ],
    };
    const validation = await engine.validate(plan, { threadId: "t", context });
    expect(validation.ok).toBe(false);
    expect(forbidden(validation.diagnostics).map((d) => [d.pointer, d.callId, d.hint])).toEqual([
      ["/plan/0/headers/x-key", "api", HINT],
      ["/plan/0/headers/nested/0/deep", "api", HINT],
      ["/plan/0/items/1", "api", HINT],
      ["/plan/0/items/2", "api", HINT],
      ["/plan/0/path", "api", HINT],
    ]);
    await engine.close();
  });

  it("validate says it with or without a context, in document order among the compiler's diagnostics", async () => {
    const { engine } = engineWith();
    const plan = {
      type: "plan",
      plan: [
        { _tool: "fmt", text: "†secrets.apiKey" },
        { _tool: "nope" },
        { _tool: "fmt", text: "{†secrets.apiKey}", extra: 1 },
      ],
    };
    for (const options of [{}, { context }]) {
      const validation = await engine.validate(plan, options);
      expect(validation.ok).toBe(false);
      expect(validation.diagnostics.map((d) => [d.code, d.pointer])).toEqual([
        ["REF_KIND_FORBIDDEN", "/plan/0/text"],
        ["TOOL_UNKNOWN", "/plan/1/_tool"],
        ["REF_KIND_FORBIDDEN", "/plan/2/text"],
      ]);
    }
    // a plan given as text: the same, by where each value is in the text
    const text = JSON.stringify({ plan: [{ text: "{†secrets.apiKey}", _tool: "fmt" }, { _tool: "nope" }] });
    const validation = await engine.validate(text);
    expect(validation.diagnostics.map((d) => [d.code, d.pointer])).toEqual([
      ["REF_KIND_FORBIDDEN", "/plan/0/text"],
      ["TOOL_UNKNOWN", "/plan/1/_tool"],
    ]);
    await engine.close();
  });

  it("the README's example: a bare call list, an automatic id", async () => {
    const { engine } = engineWith();
    const validation = await engine.validate([{ _tool: "fmt", text: "key={†secrets.apiKey}" }]);
    expect(validation).toMatchObject({
      ok: false,
      diagnostics: [
        {
          code: "REF_KIND_FORBIDDEN",
          pointer: "/0/text",
          callId: "fmt$1",
          message:
            'parameter "text" of tool "fmt" may not read †secrets: the host lets only some parameters read it',
          hint: HINT,
        },
      ],
    });
    expect(validation.diagnostics).toHaveLength(1);
    await engine.close();
  });

  it("readers {} : no parameter may read the kind", async () => {
    const { engine } = engineWith([{ kind: "secrets", readers: {} }]);
    const validation = await engine.validate([{ _tool: "callApi", auth: "†secrets.apiKey" }]);
    expect(forbidden(validation.diagnostics)).toMatchObject([
      { pointer: "/0/auth", hint: "no parameter may read †secrets: leave it out of the plan" },
    ]);
    await engine.close();
  });

  it("resume re-judges the recorded plan: a run recorded before the kind was scoped is refused", async () => {
    const store = createMemoryStore();
    const before = createEngine({
      tools: [defineTool({ name: "fmt", input: { type: "object" }, run: () => "x" })],
      kinds: [{ kind: "secrets" }],
      store,
    });
    const recorded = await before.run([{ _tool: "fmt", text: "{†secrets.apiKey}", _rerun: true }], {
      threadId: "t",
      context: { secrets },
    });
    const after = createEngine({
      tools: [
        defineTool({ name: "fmt", input: { type: "object", properties: { text: {} } }, run: () => "x" }),
      ],
      kinds: [{ kind: "secrets", readers: { fmt: [] } }],
      store,
    });
    const error = await rejectionOf(after.resume(recorded.runId, { context: { secrets } }));
    expect(error.code).toBe("PLAN_INVALID");
    expect(forbidden((error.data as { diagnostics: Diagnostic[] }).diagnostics)).toMatchObject([
      { pointer: "/0/text" },
    ]);
    await after.close();
  });

  it("agentTools: validate_plan and run_plan answer it to the model", async () => {
    const { engine, received } = engineWith();
    const [validatePlan, runPlan] = agentTools(engine, "t");
    const plan = {
      type: "plan",
      plan: [{ _tool: "fmt", text: "k={†secrets.apiKey}", _outputPath: "†state.k" }],
    };
    const validation = await validatePlan.execute({ plan });
    if ("error" in validation) throw new Error("validate_plan failed");
    expect(forbidden(validation.diagnostics as Diagnostic[])).toMatchObject([
      { pointer: "/plan/0/text", hint: HINT },
    ]);
    const answer = (await runPlan.execute({ plan })) as { error?: { code: string; data: unknown } };
    expect(answer.error?.code).toBe("PLAN_INVALID");
    expect(JSON.stringify(answer.error?.data)).toContain("REF_KIND_FORBIDDEN");
    expect(received).toEqual([]);
    await engine.close();
  });
});

describe("a stream's add refuses such a call before it runs", () => {
  it("refused with the diagnostic; its _id stays free; the calls accepted run", async () => {
    const { engine, received } = engineWith();
    const run = await engine.open({ threadId: "t", context });
    const refused = run.add({ _tool: "fmt", _id: "x", text: "k={†secrets.apiKey}", _outputPath: "†state.k" });
    expect(refused).toEqual({
      ok: false,
      diagnostics: [
        {
          code: "REF_KIND_FORBIDDEN",
          severity: "error",
          message:
            'parameter "text" of tool "fmt" may not read †secrets: the host lets only some parameters read it',
          pointer: "/plan/0/text",
          callId: "x",
          hint: HINT,
        },
      ],
    });
    const nested = run.add({
      _tool: "callApi",
      auth: "†secrets.apiKey",
      headers: { k: ["†secrets.apiKey"] },
    });
    expect(nested).toMatchObject({ ok: false, diagnostics: [{ pointer: "/plan/0/headers/k/0" }] });
    expect(
      run.add({ _tool: "fmt", _id: "x", text: "hi {†user.name}", _outputPath: "†state.k" }),
    ).toMatchObject({
      ok: true,
      callId: "x",
    });
    expect(run.add({ _tool: "callApi", auth: "†secrets.apiKey" })).toMatchObject({ ok: true });
    const result = await run.close();
    expect(result.status).toBe("succeeded");
    expect(Object.keys(result.calls)).toHaveLength(2);
    expect(received).toEqual([{ text: "hi Ada" }, { auth: SECRET }]);
    expect(result.state).toEqual({ k: "HI ADA" });
    await engine.close();
  });
});

describe("readers are checked at createEngine (USAGE)", () => {
  const tools = [
    defineTool({ name: "callApi", input: { type: "object", properties: { auth: {} } }, run: () => 1 }),
    defineTool({ name: "loose", input: { type: "object" }, run: () => 1 }),
  ];
  const create = (readers: unknown) => () =>
    createEngine({ tools, kinds: [{ kind: "secrets", readers }] } as EngineOptions);

  it("an unknown tool, with the nearest name", () => {
    const error = thrownError(create({ calApi: ["auth"] }), "USAGE");
    expect(error.message).toBe(
      'createEngine: kind "secrets": readers names the tool "calApi", which is not registered',
    );
    expect(error.hint).toBe('did you mean "callApi"?');
  });

  it("a parameter the input schema does not declare, with the nearest name (a schema declaring none takes any)", () => {
    const error = thrownError(create({ callApi: ["auht"] }), "USAGE");
    expect(error.message).toBe(
      'createEngine: kind "secrets": readers.callApi names "auht", which the input schema of "callApi" does not declare',
    );
    expect(error.hint).toBe('did you mean "auth"?');
    expect(() => create({ loose: ["anything"] })()).not.toThrow();
  });

  it("a meta-property, a shape that is not an object of name lists", () => {
    expect(thrownError(create({ callApi: ["_outputPath"] }), "USAGE").message).toContain(
      'readers.callApi names "_outputPath": a key starting with "_" is a meta-property',
    );
    for (const readers of [["callApi"], null, "callApi.auth"])
      expect(thrownError(create(readers), "USAGE").message).toBe(
        'createEngine: kind "secrets": readers must be an object of parameter names by tool name',
      );
    for (const names of ["auth", [1], [""]])
      expect(thrownError(create({ callApi: names }), "USAGE").message).toBe(
        'createEngine: kind "secrets": readers.callApi must be an array of parameter names',
      );
  });

  it("a readers getter that throws is USAGE naming the kinds", () => {
    const kind = {
      kind: "secrets",
      get readers(): never {
        throw new Error("boom");
      },
    };
    const error = thrownError(() => createEngine({ tools, kinds: [kind] }), "USAGE");
    expect(ObeliskError.is(error)).toBe(true);
    expect(error.message).toContain("createEngine's kinds");
  });
});
