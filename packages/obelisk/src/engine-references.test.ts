import { describe, expect, it } from "vitest";
import { asThreadId, createEngine, createMemoryStore, defineTool } from "./index.js";

const echo = defineTool({ name: "echo", run: (args: unknown) => args });
const make = defineTool({ name: "make", run: () => ({ n: 50, list: [1, 2], name: "Ada" }) });

describe("reference resolution", () => {
  it("keeps whole values' JSON type, renders templates, reads †calls and the $tool_output alias", async () => {
    const engine = createEngine({ tools: [echo, make] });
    const result = await engine.run(
      [
        { _tool: "make", _id: "m" },
        {
          _tool: "echo",
          _id: "e",
          whole: "†calls.m",
          n: "†calls.m.n",
          alias: "$tool_output.m",
          text: "Hi {†calls.m.name}, n={†calls.m.n}, list={†calls.m.list}, in={†input.x}",
          nested: { deep: ["†input.x", "literal", "††state.not"] },
          _outputPath: "†state.echo",
        },
      ],
      { input: { x: "X" } },
    );
    expect(result.calls.m).toMatchObject({ status: "succeeded", wrote: ["†calls.m"] });
    expect(result.state.echo).toEqual({
      whole: { n: 50, list: [1, 2], name: "Ada" },
      n: 50,
      alias: { n: 50, list: [1, 2], name: "Ada" },
      text: "Hi Ada, n=50, list=[1,2], in=X",
      nested: { deep: ["X", "literal", "†state.not"] },
    });
    expect(await engine.get("default", "†calls.m.n")).toEqual({ found: true, value: 50 });
  });

  it("reads stored call outputs of earlier runs and hands tools frozen values", async () => {
    let frozen: boolean | undefined;
    const inspect = defineTool({
      name: "inspect",
      run: (args: unknown) => {
        const value = (args as { value: { list: number[] } }).value;
        frozen = Object.isFrozen(value) && Object.isFrozen(value.list) && Object.isFrozen(args);
        return value.list.length;
      },
    });
    const engine = createEngine({ tools: [make, inspect] });
    await engine.run([{ _tool: "make", _id: "m" }], { threadId: "t" });
    const result = await engine.run(
      [{ _tool: "inspect", _id: "i", value: "†calls.m", _outputPath: "†state.count" }],
      {
        threadId: "t",
      },
    );
    expect(result.state.count).toBe(2);
    expect(frozen).toBe(true);
  });

  it("a self-reference reads the value from before the run", async () => {
    const inc = defineTool({ name: "inc", run: (args: unknown) => (args as { n: number }).n + 1 });
    const engine = createEngine({ tools: [inc] });
    await engine.set("default", "†state.n", 1);
    const result = await engine.run([{ _tool: "inc", _id: "i", n: "†state.n", _outputPath: "†state.n" }]);
    expect(result.state.n).toBe(2);
  });
});

describe("host kinds (†env)", () => {
  const engine = () =>
    createEngine({
      tools: [echo],
      kinds: [{ kind: "env", writable: false, engineManaged: false, description: "host values" }],
    });
  const plan = [{ _tool: "echo", _id: "e", region: "†env.region", _outputPath: "†state.e" }];
  const codes = (diagnostics: readonly { code: string; pointer: string }[]) =>
    diagnostics.map((d) => [d.code, d.pointer]);

  it("a run without a value for a read kind is PLAN_INVALID before anything runs, as for a missing input", async () => {
    const error = await engine()
      .run(plan)
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: "PLAN_INVALID" });
    const diagnostics = (
      error as { data: { diagnostics: { code: string; pointer: string; hint?: string }[] } }
    ).data.diagnostics;
    expect(codes(diagnostics)).toEqual([["REF_UNRESOLVED", "/0/region"]]);
    expect(diagnostics[0]?.hint).toContain("no value for the env kind");
    const ran = await engine().run(plan, { context: { env: { region: "eu" } } });
    expect(ran.state.e).toEqual({ region: "eu" });
  });

  it("validate without a context leaves host kinds unknown; with one, judges them", async () => {
    expect((await engine().validate(plan)).ok).toBe(true);
    const judged = await engine().validate(plan, { context: {} });
    expect(codes(judged.diagnostics)).toEqual([["REF_UNRESOLVED", "/0/region"]]);
  });

  it("a context key that is not a kind of the engine is USAGE naming the nearest kind (stop 29 review)", async () => {
    // the misspelt kind left †env.region unresolved with no word of why
    for (const attempt of [
      () => engine().validate(plan, { context: { evn: { region: "eu" } } }),
      () => engine().run(plan, { context: { env: { region: "eu" }, evn: {} } }),
    ]) {
      await expect(attempt()).rejects.toMatchObject({
        code: "USAGE",
        message: 'the context names "evn", which is not a kind of the engine',
        hint: 'did you mean "env"?',
      });
    }
    const store = createMemoryStore();
    await expect(
      createEngine({ tools: [echo], store }).run(plan, { threadId: "t", context: { env: {} } }),
    ).rejects.toMatchObject({
      code: "USAGE",
      hint: "declare the kind with createEngine({ kinds: [{ kind, description }] })",
    });
    expect(await store.listRuns({ threadId: asThreadId("t") })).toEqual([]);
  });
});
