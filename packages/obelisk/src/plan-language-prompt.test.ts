import { createToolRegistry } from "@obelisk/compiler";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  agentTools,
  createEngine,
  createMemoryStore,
  defineTool,
  type Engine,
  type JsonObject,
  ObeliskError,
  planLanguagePrompt,
} from "./index.js";

/** The worked example of a prompt, parsed back from its text. */
function exampleOf(prompt: string): { type: "plan"; plan: JsonObject[] } | undefined {
  const start = prompt.indexOf('{"type":"plan","plan":[\n');
  if (start === -1) return undefined;
  const end = prompt.indexOf("\n]}", start) + 3;
  return JSON.parse(prompt.slice(start, end)) as { type: "plan"; plan: JsonObject[] };
}

/** Validates the prompt's example on a fresh thread: it must be valid and quiet. */
async function expectExampleValidates(engine: Engine): Promise<{ type: "plan"; plan: JsonObject[] }> {
  const example = exampleOf(planLanguagePrompt(engine));
  expect(example, "the prompt has an example").toBeDefined();
  const result = await engine.validate(example);
  expect(result.diagnostics).toEqual([]);
  expect(result.ok).toBe(true);
  return example as { type: "plan"; plan: JsonObject[] };
}

const fetchUser = defineTool({
  name: "fetchUser",
  description: "Fetches a user",
  input: z.object({ userId: z.string() }),
  output: z.object({ name: z.string(), age: z.number().int() }),
  run: ({ userId }) => ({ name: `user ${userId}`, age: 36 }),
});
const greet = defineTool({
  name: "greet",
  input: z.object({ text: z.string(), loud: z.boolean().optional() }),
  run: ({ text }) => text,
});

describe("planLanguagePrompt: the primer a model reads", () => {
  it("states the plan language and a worked example of the engine's own tools, stable text", async () => {
    const engine = createEngine({ tools: [fetchUser, greet] });
    const prompt = planLanguagePrompt(engine);
    expect(prompt).toMatchInlineSnapshot(`
      "You act by writing plans for Obelisk. A plan is JSON: {"type":"plan","plan":[call, …]}. A call runs as soon as everything it reads exists, calls that do not depend on each other run in parallel, and the order of the list means nothing.
      - A call: {"_tool":"<tool name>", <the tool's parameters>, "_id":"<a name: letters, digits, _ or ->", "_outputPath":"†state.<path>"}. Other keys that start with _: "_outputMethod", "_rerun", "_timeoutMs", "_retry", "_description".
      - A parameter that is a whole reference gets the value itself, its JSON type kept: "†input.<key>" (the run's input), "†state.<path>" (the thread's state, kept from run to run), "†calls.<id>" (the output of a call that has no _outputPath: kept for a while only, so give what later turns need an _outputPath into †state). Paths: "†state.user.name", "†state.items[0]". References start with † (U+2020).
      - Inside text, one pair of braces and no spaces: "Hello {†state.user.name}!" (not {{…}}). "††" is a literal †.
      - "†state.a || †state.b" takes the first that exists; "†state.a && †state.b" waits for both and gives the last.
      - "_outputPath" says where the result goes: "†state.a" (objects on the way are created); "†state.a && †state.b" writes both; "†state.ok || †state.failed" writes the first when the tool succeeds, and its error ({"name","message","code"}) to the last when it fails (the run goes on). "_outputMethod": "set" (default), "merge", "assign", "push" (append the value to a list) or "concat" (append a list's items).
      - Read a call's output as it is, "†calls.<id>" (not "†calls.<id>.output"), or where its _outputPath wrote it. Two calls may not write the same path, unless each pushes, concats, merges or assigns.
      - †state.approvals.<name> is given by a person: a plan cannot write it, and a call that reads it waits until it is given.
      - A call that already ran on this thread with the same tool, parameters, _outputPath and _outputMethod is not run again (status "satisfied", its result stays where it was written) unless its tool always runs; add "_rerun": true to run it again (a tool that must not repeat, such as a payment, refuses "_rerun": it was done once).
      Tools: validate_plan lists every problem of a plan at once (most with a hint to fix it) and runs nothing; run_plan runs a plan and answers each call's status and where it wrote (an invalid plan runs nothing: fix it by its diagnostics and send it again).
      Read what you wrote with get_variable {"reference":"†state.<path>"}; list_variables lists what the thread holds. A later plan reads those values by reference ("†state.report"): do not copy them into the plan.
      Example with this engine's tools:
      {"type":"plan","plan":[
        {"_tool":"fetchUser","userId":"example","_id":"fetchUser","_outputPath":"†state.fetchUserResult"},
        {"_tool":"greet","text":"Result: {†state.fetchUserResult.name}","_id":"greet","_outputPath":"†state.greetResult || †state.greetError"}
      ]}
      fetchUser runs first; greet waits for †state.fetchUserResult, reads it, and writes to †state.greetResult; had greet failed, its error would be written to †state.greetError."
    `);
    const example = await expectExampleValidates(engine);
    const run = await engine.run(example, { threadId: "t" });
    expect(run.status).toBe("succeeded");
    expect(await engine.get("t", "†state.greetResult")).toEqual({
      found: true,
      value: "Result: user example",
    });
  });

  it("a parameter named as a field of the first call's output reads that field, whole", async () => {
    const weather = defineTool({
      name: "getWeather",
      input: z.object({ city: z.string() }),
      run: ({ city }) => `sunny in ${city}`,
    });
    const place = defineTool({
      name: "fetchUser",
      input: z.object({ userId: z.string() }),
      output: z.object({ name: z.string(), city: z.string() }),
      run: () => ({ name: "Ada", city: "Paris" }),
    });
    const engine = createEngine({ tools: [place, weather] });
    const example = await expectExampleValidates(engine);
    expect(example.plan[1]).toMatchObject({ _tool: "getWeather", city: "†state.fetchUserResult.city" });
    await engine.run(example, { threadId: "t" });
    expect(await engine.get("t", "†state.getWeatherResult")).toEqual({
      found: true,
      value: "sunny in Paris",
    });
  });

  it("writes no sentence into a parameter that names a key or an address (an id, a url, an email)", async () => {
    const search = defineTool({
      name: "searchWeb",
      input: z.object({ query: z.string() }),
      output: z.object({ results: z.array(z.object({ title: z.string() })) }),
      run: () => ({ results: [] }),
    });
    const byId = (name: string) =>
      defineTool({ name: `fetch_${name}`, input: z.object({ [name]: z.string() }), run: () => "x" });
    const summarize = defineTool({
      name: "summarize",
      input: z.object({ text: z.string() }),
      run: () => "s",
    });
    // before: {"_tool":"fetchUser","id":"Result: {†state.searchWebResult}"} (review s40 r2 #11)
    const keys = ["id", "userId", "order_id", "url", "email", "apiKey"].map(byId);
    const engine = createEngine({ tools: [search, ...keys.slice(0, 3), summarize] });
    const example = await expectExampleValidates(engine);
    expect(example.plan[1]).toMatchObject({ _tool: "summarize", text: "Result: {†state.searchWebResult}" });
    const onlyKeys = createEngine({ tools: [search, ...keys.slice(3)] });
    const alone = await expectExampleValidates(onlyKeys);
    for (const call of alone.plan)
      for (const name of ["url", "email", "apiKey"]) expect(String(call[name] ?? "")).not.toContain("{†");
    // a name that merely ends in the letters stays free text
    const paid = createEngine({ tools: [search, byId("paid")] });
    expect((await expectExampleValidates(paid)).plan[1]).toMatchObject({
      paid: "Result: {†state.searchWebResult}",
    });
  });

  it("names the agent tools only when the model has them", () => {
    const engine = createEngine({ tools: [fetchUser, greet] });
    const withTools = planLanguagePrompt(engine);
    const without = planLanguagePrompt(engine, { agentTools: false });
    for (const tool of agentTools(engine, "t")) {
      expect(withTools).toContain(tool.name);
      expect(without).not.toContain(tool.name);
    }
    expect(without).toContain("a later plan reads it by reference");
    expect(planLanguagePrompt(engine.registry)).toBe(withTools);
  });

  it("stays within 4,000 characters, whatever the registry holds", () => {
    const huge = z.object({
      [`p${"q".repeat(300)}`]: z.enum(["x".repeat(2_000), "y"]),
      text: z.string().describe("d".repeat(5_000)),
    });
    const tools = Array.from({ length: 200 }, (_, index) =>
      defineTool({
        name: `tool${index}${"n".repeat(200)}`,
        description: "e".repeat(3_000),
        input: huge,
        run: () => 1,
      }),
    );
    const prompt = planLanguagePrompt(createEngine({ tools }));
    expect(prompt.length).toBeLessThanOrEqual(4_000);
    expect(exampleOf(prompt)).toBeUndefined(); // every candidate is longer than an example may be
    const small = planLanguagePrompt(createEngine({ tools: [fetchUser, greet] }));
    expect(small.length).toBeLessThanOrEqual(4_000);
  });

  it("refuses what is not an engine or a registry, and unknown options, with USAGE", () => {
    const engine = createEngine({ tools: [greet] });
    const usage = (call: () => unknown) => {
      try {
        call();
      } catch (error) {
        expect(ObeliskError.is(error, "USAGE")).toBe(true);
        return (error as ObeliskError).message;
      }
      throw new Error("no USAGE error");
    };
    expect(usage(() => planLanguagePrompt({} as Engine))).toContain("takes an engine or its tool registry");
    expect(usage(() => planLanguagePrompt(null as unknown as Engine))).toContain(
      "engine or its tool registry",
    );
    expect(usage(() => planLanguagePrompt(engine, { agentTool: false } as never))).toContain('"agentTool"');
    expect(usage(() => planLanguagePrompt(engine, { agentTools: "no" } as never))).toContain("true or false");
  });
});

describe("the worked example validates against many registries", () => {
  const cases: [string, () => Engine][] = [
    [
      "one tool, numbers only",
      () =>
        createEngine({
          tools: [
            defineTool({
              name: "add",
              input: z.object({ a: z.number().int().min(5), b: z.number().max(-2) }),
              run: ({ a, b }) => a + b,
            }),
          ],
        }),
    ],
    [
      "a tool with one outcome (no || route)",
      () =>
        createEngine({
          tools: [
            defineTool({
              name: "check",
              outcomes: ["ok"],
              input: z.object({ text: z.string() }),
              run: () => "ok",
            }),
          ],
        }),
    ],
    [
      "a prescribed output path",
      () =>
        createEngine({
          tools: [
            defineTool({
              name: "summarize",
              input: z.object({ text: z.string() }),
              outputPath: { const: "†state.summary" },
              run: () => "s",
            }),
            greet,
          ],
        }),
    ],
    [
      "a gated tool first",
      () =>
        createEngine({
          tools: [
            defineTool({
              name: "pay",
              approvalParams: ["approval"],
              input: z.object({ approval: z.unknown(), amount: z.number().positive() }),
              run: () => "paid",
            }),
            greet,
          ],
        }),
    ],
    [
      "enums, formats, patterns and lengths",
      () =>
        createEngine({
          tools: [
            defineTool({
              name: "mail",
              input: z.object({
                to: z.email(),
                kind: z.enum(["plain", "html"]),
                subject: z.string().min(12).max(20),
                at: z.iso.datetime(),
                tags: z.array(z.string()).min(2),
              }),
              run: () => "sent",
            }),
            greet,
          ],
        }),
    ],
    [
      "a pattern the example cannot match: another tool",
      () =>
        createEngine({
          tools: [
            defineTool({
              name: "code",
              input: z.object({ code: z.string().regex(/^[A-Z]{3}$/) }),
              run: () => 1,
            }),
            greet,
          ],
        }),
    ],
    [
      "a recursive schema",
      () => {
        const node: z.ZodType = z.lazy(() => z.object({ name: z.string(), children: z.array(node) }));
        return createEngine({
          tools: [defineTool({ name: "tree", input: z.object({ root: node }), run: () => "ok" }), greet],
        });
      },
    ],
    [
      "spec-form JSON Schema tools",
      () =>
        createEngine({
          tools: [
            {
              type: "object",
              properties: { _tool: { const: "lookup" }, key: { type: "string" } },
              required: ["_tool", "key"],
            },
          ],
          implementations: { lookup: () => ({ value: "v" }) },
        }),
    ],
    [
      "a latent tool beside a running one",
      () =>
        createEngine({ tools: [defineTool({ name: "decide", latent: true, output: z.string() }), greet] }),
    ],
  ];
  it.each(cases)("%s", async (_name, make) => {
    await expectExampleValidates(make());
  });

  it("has no example when no tool can be called, and says nothing wrong then", () => {
    const latentOnly = createEngine({
      tools: [defineTool({ name: "decide", latent: true, output: z.string() })],
    });
    const prompt = planLanguagePrompt(latentOnly);
    expect(exampleOf(prompt)).toBeUndefined();
    expect(prompt).not.toContain("Example");
    expect(exampleOf(planLanguagePrompt(createToolRegistry([])))).toBeUndefined();
  });
});

describe("every rule the primer states holds (a plan exercises each)", () => {
  const prompt = planLanguagePrompt(createEngine({ tools: [greet] }));
  let echoes = 0;
  const echo = defineTool({
    name: "echo",
    input: z.object({ value: z.unknown() }),
    run: ({ value }) => {
      echoes += 1;
      return value;
    },
  });
  const fail = defineTool({
    name: "fail",
    input: z.object({}),
    run: () => {
      throw Object.assign(new Error("down"), { code: "DOWN" });
    },
  });
  const fresh = defineTool({ name: "tick", fresh: true, input: z.object({}), run: () => (echoes += 1) });
  const engine = () => createEngine({ tools: [echo, fail, fresh] });
  const plan = (...calls: JsonObject[]) => ({ type: "plan", plan: calls });
  const stated = (...phrases: string[]) => {
    for (const phrase of phrases) expect(prompt).toContain(phrase);
  };

  it("calls run when what they read exists, whatever their order; input, state and calls references", async () => {
    stated("the order of the list means nothing", '"†input.<key>"', '"†calls.<id>"', "its JSON type kept");
    const e = engine();
    const run = await e.run(
      plan(
        { _tool: "echo", _id: "last", value: "†calls.middle", _outputPath: "†state.out" },
        { _tool: "echo", _id: "middle", value: "†state.first" },
        { _tool: "echo", _id: "first", value: "†input.n", _outputPath: "†state.first" },
      ),
      { threadId: "t", input: { n: { count: 2 } } },
    );
    expect(run.status).toBe("succeeded");
    expect(await e.get("t", "†state.out")).toEqual({ found: true, value: { count: 2 } });
  });

  it("templates take one pair of braces; †† is a literal †; paths index lists", async () => {
    stated('"Hello {†state.user.name}!"', '"††" is a literal †', '"†state.items[0]"');
    const e = engine();
    await e.set("t", "†state.user", { name: "Ada" });
    await e.set("t", "†state.items", ["a", "b"]);
    await e.run(
      plan(
        { _tool: "echo", _id: "hello", value: "Hello {†state.user.name}!", _outputPath: "†state.hello" },
        { _tool: "echo", _id: "dagger", value: "††state.user", _outputPath: "†state.dagger" },
        { _tool: "echo", _id: "item", value: "†state.items[0]", _outputPath: "†state.item" },
      ),
      { threadId: "t" },
    );
    expect((await e.get("t", "†state")).value).toMatchObject({
      hello: "Hello Ada!",
      dagger: "†state.user",
      item: "a",
    });
    const doubled = await e.validate(
      plan({ _tool: "echo", value: "Hi {{†state.user.name}}", _outputPath: "†state.h" }),
      {
        threadId: "t",
      },
    );
    expect(doubled.diagnostics.map((d) => d.code)).toContain("REF_SUSPICIOUS");
  });

  it("|| takes the first that exists, && waits for both and gives the last", async () => {
    stated('"†state.a || †state.b" takes the first that exists', "waits for both and gives the last");
    const e = engine();
    await e.set("t", "†state.b", "b");
    await e.run(
      plan(
        { _tool: "echo", _id: "either", value: "†state.a || †state.b", _outputPath: "†state.either" },
        { _tool: "echo", _id: "a", value: "late a", _outputPath: "†state.late" },
        { _tool: "echo", _id: "both", value: "†state.late && †state.b", _outputPath: "†state.both" },
      ),
      { threadId: "t" },
    );
    expect((await e.get("t", "†state")).value).toMatchObject({ either: "b", both: "b" });
  });

  it("_outputPath: objects on the way are created, && writes both, || routes a failure and the run goes on", async () => {
    stated("objects on the way are created", "writes both", "to the last when it fails (the run goes on)");
    const e = engine();
    const run = await e.run(
      plan(
        { _tool: "echo", _id: "deep", value: 1, _outputPath: "†state.x.y.z" },
        { _tool: "echo", _id: "fan", value: 2, _outputPath: "†state.f1 && †state.f2" },
        { _tool: "fail", _id: "bad", _outputPath: "†state.ok || †state.failed" },
        { _tool: "echo", _id: "after", value: "†state.failed.message", _outputPath: "†state.after" },
      ),
      { threadId: "t" },
    );
    expect(run.status).toBe("succeeded");
    expect((await e.get("t", "†state")).value).toMatchObject({
      x: { y: { z: 1 } },
      f1: 2,
      f2: 2,
      failed: { name: "Error", message: "down", code: "DOWN" },
      after: "down",
    });
  });

  it('"push" appends the value, "concat" the items; two plain writers of one path conflict', async () => {
    stated(
      '"push" (append the value to a list)',
      '"concat" (append a list\'s items)',
      "Two calls may not write the same path",
    );
    const e = engine();
    await e.run(
      plan(
        { _tool: "echo", _id: "p1", value: 1, _outputPath: "†state.list", _outputMethod: "push" },
        { _tool: "echo", _id: "p2", value: [2, 3], _outputPath: "†state.list", _outputMethod: "concat" },
      ),
      { threadId: "t" },
    );
    expect(await e.get("t", "†state.list")).toEqual({ found: true, value: [1, 2, 3] });
    const clash = await e.validate(
      plan(
        { _tool: "echo", value: 1, _outputPath: "†state.v" },
        { _tool: "echo", value: 2, _outputPath: "†state.v" },
      ),
    );
    expect(clash.diagnostics.map((d) => d.code)).toContain("OUTPUT_CONFLICT");
  });

  it("a call's output without _outputPath is kept for a while only; one written to †state stays", async () => {
    stated("kept for a while only, so give what later turns need an _outputPath into †state");
    let clock = Date.parse("2026-01-01T00:00:00Z");
    const e = createEngine({
      tools: [echo],
      now: () => clock,
      store: createMemoryStore({ now: () => clock }),
    });
    await e.run(
      plan(
        { _tool: "echo", _id: "kept", value: 1, _outputPath: "†state.kept" },
        { _tool: "echo", _id: "loose", value: 2 },
      ),
      { threadId: "t" },
    );
    clock += 2 * 60 * 60 * 1000; // two hours later: the default age limit of call outputs is one hour
    const later = await e.validate(plan({ _tool: "echo", value: "†calls.loose", _outputPath: "†state.x" }), {
      threadId: "t",
    });
    expect(later.diagnostics.map((d) => d.code)).toEqual(["REF_UNRESOLVED"]);
    expect(await e.get("t", "†state.kept")).toEqual({ found: true, value: 1 });
  });

  it("a call's output is read as it is: †calls.<id>, not †calls.<id>.output", async () => {
    stated('(not "†calls.<id>.output")');
    const search = defineTool({
      name: "search",
      input: z.object({ q: z.string() }),
      output: z.array(z.object({ title: z.string() })),
      run: ({ q }) => [{ title: q }],
    });
    const e = createEngine({ tools: [search, echo] });
    const fetch = { _tool: "search", _id: "s", q: "obelisk" };
    const wrong = await e.validate(
      plan(fetch, { _tool: "echo", value: "†calls.s.output", _outputPath: "†state.r" }),
    );
    expect(wrong.diagnostics.map((d) => [d.code, d.hint])).toEqual([
      ["REF_UNRESOLVED", expect.stringContaining('†calls.s is the output itself: read "†calls.s"')],
    ]);
    const right = plan(fetch, { _tool: "echo", value: "†calls.s", _outputPath: "†state.r" });
    expect((await e.validate(right)).diagnostics).toEqual([]);
    await e.run(right, { threadId: "t" });
    expect(await e.get("t", "†state.r")).toEqual({ found: true, value: [{ title: "obelisk" }] });
  });

  it("†state.approvals.<name>: a plan cannot write it, a call reading it waits until a person gives it", async () => {
    stated("a plan cannot write it, and a call that reads it waits until it is given");
    const e = engine();
    const write = await e.validate(plan({ _tool: "echo", value: true, _outputPath: "†state.approvals.pay" }));
    expect(write.diagnostics.map((d) => d.code)).toContain("OUTPUT_PATH_READONLY");
    const gated = plan({
      _tool: "echo",
      _id: "pay",
      value: "†state.approvals.pay",
      _outputPath: "†state.paid",
    });
    expect((await e.run(gated, { threadId: "t" })).calls.pay?.status).toBe("waiting");
    await e.set("t", "†state.approvals.pay", { by: "ops" });
    expect((await e.run(gated, { threadId: "t" })).calls.pay?.status).toBe("succeeded");
  });

  it('the same call is not run again ("satisfied") unless its tool always runs or it has "_rerun": true', async () => {
    stated(
      'is not run again (status "satisfied"',
      "unless its tool always runs",
      'add "_rerun": true to run it again',
    );
    const e = engine();
    const once = {
      _tool: "echo",
      _id: "add",
      value: "apple",
      _outputPath: "†state.cart",
      _outputMethod: "push",
    };
    await e.run(plan(once), { threadId: "t" });
    const before = echoes;
    expect((await e.run(plan(once), { threadId: "t" })).calls.add?.status).toBe("satisfied");
    expect(echoes).toBe(before);
    expect((await e.run(plan({ ...once, _rerun: true }), { threadId: "t" })).calls.add?.status).toBe(
      "succeeded",
    );
    expect(await e.get("t", "†state.cart")).toEqual({ found: true, value: ["apple", "apple"] });
    const tick = plan({ _tool: "tick", _id: "tick", _outputPath: "†state.tick" });
    await e.run(tick, { threadId: "t" });
    expect((await e.run(tick, { threadId: "t" })).calls.tick?.status).toBe("succeeded");
  });

  it("the agent tools do what the primer says: validate_plan lists every problem with a hint and runs nothing", async () => {
    stated(
      "validate_plan lists every problem of a plan at once (most with a hint to fix it) and runs nothing",
      "an invalid plan runs nothing",
    );
    stated('get_variable {"reference":"†state.<path>"}', "list_variables lists what the thread holds");
    const e = engine();
    const [validatePlan, runPlan, listVariables, getVariable] = agentTools(e, "t");
    const before = echoes;
    const bad = plan(
      { _tool: "ecko", value: 1, _outputPath: "†state.a" },
      { _tool: "echo", vale: 1, _outputPath: "†state.b" },
    );
    const checked = await validatePlan.execute({ plan: bad });
    expect("error" in checked).toBe(false);
    if ("error" in checked) return;
    expect(checked.diagnostics.length).toBeGreaterThanOrEqual(2);
    console.log(JSON.stringify(checked.diagnostics));
    expect(checked.diagnostics.map((d) => [d.code, d.hint])).toEqual([
      ["TOOL_UNKNOWN", 'did you mean "echo"?'],
      ["PARAM_MISSING", undefined],
      ["PARAM_UNKNOWN", 'did you mean "value"?'],
    ]);
    const refused = await runPlan.execute({ plan: bad });
    expect(refused).toMatchObject({ ok: false, error: { code: "PLAN_INVALID" } });
    expect(echoes).toBe(before);
    await runPlan.execute({ plan: plan({ _tool: "echo", value: { n: 1 }, _outputPath: "†state.report" }) });
    expect(await getVariable.execute({ reference: "†state.report" })).toMatchObject({
      found: true,
      value: { n: 1 },
    });
    const listed = await listVariables.execute({});
    expect(JSON.stringify(listed)).toContain("†state.report");
  });
});
