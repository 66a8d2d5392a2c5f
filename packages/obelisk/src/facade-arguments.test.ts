import { describe, expect, it } from "vitest";
import { codeOf } from "./__fixtures__/error-codes.js";
import {
  asThreadId,
  type CallErrorCode,
  createEngine,
  createMemoryStore,
  type DiagnosticCode,
  type JsonArray,
  type JsonValue,
  type ObeliskCode,
  ObeliskError,
} from "./index.js";

describe("the facade refuses arguments of the wrong type with USAGE (not a TypeError)", () => {
  it("get and set with a reference that is not a string", async () => {
    const engine = createEngine({ tools: [] });
    await engine.set("t", "†state.a", 1);
    expect(await codeOf(() => engine.get("t", 42 as unknown as string))).toBe("USAGE");
    expect(await codeOf(() => engine.get("t", null as unknown as string))).toBe("USAGE");
    expect(await codeOf(() => engine.set("t", 42 as unknown as string, 1))).toBe("USAGE");
    expect(await engine.get("t", "†state")).toEqual({ found: true, value: { a: 1 } });
  });

  it("get, set and runs.list with options that are not an object (null, a number, an array)", async () => {
    const engine = createEngine({ tools: [] });
    await engine.set("t", "†state.a", 1);
    for (const options of [null, 5, ["x"]] as never[]) {
      expect(await codeOf(() => engine.get("t", "†state.a", options))).toBe("USAGE");
      expect(await codeOf(() => engine.set("t", "†state.b", 2, options))).toBe("USAGE");
      expect(await codeOf(() => engine.runs.list(options))).toBe("USAGE");
    }
    expect(await codeOf(() => engine.runs.list({ threadId: 5 } as never))).toBe("USAGE");
    // nothing was written, and well-formed options still work
    expect(await engine.get("t", "†state", {})).toEqual({ found: true, value: { a: 1 } });
    await engine.set("t", "†state.b", 2, { description: "two" });
    expect(await engine.runs.list({ threadId: "t", limit: 1 })).toEqual([]);
  });

  it("summarize with refs that is not an array of strings", async () => {
    const engine = createEngine({ tools: [] });
    await engine.set("t", "†state.a", 1);
    const refs = ["†state.a", 5] as unknown as string[];
    expect(await codeOf(() => engine.summarize("t", { refs: "†state.a" as unknown as string[] }))).toBe(
      "USAGE",
    );
    expect(await codeOf(() => engine.summarize("t", { refs }))).toBe("USAGE");
    expect(await codeOf(() => engine.summarize("t", 5 as never))).toBe("USAGE");
    // a hole is no string either (a TypeError from the parser before: adversarial review, stop 39)
    // biome-ignore lint/suspicious/noSparseArray: the hole is the case
    const holed = [, "†state.a"] as unknown as string[];
    expect(await codeOf(() => engine.summarize("t", { refs: holed }))).toBe("USAGE");
    expect((await engine.summarize("t", { refs: ["†state.a"] })).entries).toHaveLength(1);
  });

  it("summarize with a format that is neither markdown nor json (it was rendered as markdown)", async () => {
    const engine = createEngine({ tools: [] });
    await engine.set("t", "†state.a", 1);
    const refused = (format: unknown) =>
      engine.summarize("t", { format: format as "json" }).catch((error: unknown) => error);
    expect(await refused("JSON")).toMatchObject({ code: "USAGE", hint: 'did you mean "json"?' });
    expect(await refused("markdwon")).toMatchObject({ code: "USAGE", hint: 'did you mean "markdown"?' });
    for (const format of ["text", "", 5, null])
      expect(await refused(format)).toMatchObject({ code: "USAGE" });
    expect(JSON.parse((await engine.summarize("t", { format: "json" })).text)).toHaveLength(1);
    expect((await engine.summarize("t", { format: "markdown" })).text).toContain("### †state.a");
  });
});

describe("values declared with an interface are accepted by the types, and checked at run time", () => {
  interface Ticket {
    id: string;
    priority: number;
  }

  it("input, context and set values typed by an interface compile and run; non-JSON is USAGE", async () => {
    const engine = createEngine({
      tools: [{ name: "echo", input: { type: "object" }, run: (args: unknown) => args }],
      kinds: [{ kind: "env", writable: false, engineManaged: false, description: "host values" }],
    });
    const ticket: Ticket = { id: "t-1", priority: 2 };
    const env: { region: Ticket } = { region: ticket };
    const plan = [{ _tool: "echo", id: "†input.id", region: "†env.region.id", _outputPath: "†state.echo" }];
    const result = await engine.run(plan, { threadId: "t", input: ticket, context: { env } });
    expect(result.state.echo).toEqual({ id: "t-1", region: "t-1" });
    await engine.set("t", "†state.ticket", ticket);
    expect(await engine.get("t", "†state.ticket")).toEqual({ found: true, value: ticket });
    expect(await codeOf(() => engine.set("t", "†state.when", new Date()))).toBe("USAGE");
    await expect(engine.set("t", "†state.n", Number.POSITIVE_INFINITY)).rejects.toMatchObject({
      code: "USAGE",
      hint: expect.stringContaining("give a JSON value"),
    });
    expect(await codeOf(() => engine.set("t", "†state.fn", () => 1))).toBe("USAGE");
    expect(await codeOf(() => engine.run(plan, { threadId: "t", input: new Map() }))).toBe("USAGE");
  });

  it("set of undefined says so in words, and how to remove a value (review-runtime 29, 5: not 'a undefined')", async () => {
    const engine = createEngine({ tools: [] });
    await expect(engine.set("t", "†state.d", undefined as never)).rejects.toMatchObject({
      code: "USAGE",
      message: "set needs a value: undefined is not JSON",
      hint: "give a JSON value (null for none); engine.unset removes a value",
    });
    expect(await engine.store.getThread(asThreadId("t"))).toBeUndefined();
  });
});

describe("error codes and data are typed where users read them", () => {
  it("ObeliskError.is(error, code) narrows to that code and types PLAN_INVALID's data", async () => {
    const engine = createEngine({ tools: [] });
    const error = await engine.run([{ _tool: "nope" }]).catch((caught: unknown) => caught);
    expect(ObeliskError.is(error, "PLAN_NOT_APPROVED")).toBe(false);
    if (!ObeliskError.is(error, "PLAN_INVALID")) throw new Error("expected PLAN_INVALID");
    // typed: no cast needed to read the diagnostics (a typo in the code would not compile)
    const codes: DiagnosticCode[] = error.data.diagnostics.map((diagnostic) => diagnostic.code);
    expect(codes).toEqual(["TOOL_UNKNOWN"]);
    expect(error.data.planHash).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(ObeliskError.is(new Error("x"), "PLAN_INVALID")).toBe(false);
  });

  it("a call's error code offers Obelisk's codes and still takes a tool's own", async () => {
    const engine = createEngine({
      tools: [
        {
          name: "boom",
          input: { type: "object" },
          run: () => {
            throw Object.assign(new Error("no"), { code: "MY_CODE" });
          },
        },
      ],
    });
    const result = await engine.run([{ _tool: "boom", _id: "b", _outputPath: "†state.b" }]);
    const code: CallErrorCode | undefined = result.calls.b?.error?.code;
    const known: ObeliskCode = "TOOL_ERROR";
    expect([code, known]).toEqual(["MY_CODE", "TOOL_ERROR"]);
  });
});

describe("get's result is a union users narrow without casts", () => {
  it("without offset/limit it is found with a value or not found; with them, a page or the value", async () => {
    const engine = createEngine({ tools: [] });
    await engine.set("t", "†state.list", [1, 2, 3]);
    const whole = await engine.get("t", "†state.list");
    // typed: `value` is the stored JSON, no `"value" in` needed (did not compile before)
    const value: JsonValue = whole.found ? whole.value : null;
    expect(value).toEqual([1, 2, 3]);
    const page = await engine.get("t", "†state.list", { offset: 1, limit: 1 });
    // each member declares the others' fields absent: checking one narrows to its member
    if (page.items === undefined) throw new Error("expected a page of items");
    const facts: [JsonArray, number, number] = [page.items, page.offset, page.total];
    expect(facts).toEqual([[2], 1, 3]);
    const unknown = await engine.get("t", "†state.none", {});
    expect([unknown.found, unknown.value, unknown.items, unknown.text]).toEqual([
      false,
      undefined,
      undefined,
      undefined,
    ]);
  });
});

describe("runs.list passes only its two options to the store", () => {
  it("an unknown key is USAGE; a threadId that is not a string is USAGE", async () => {
    const seen: unknown[] = [];
    const memory = createMemoryStore();
    const store = new Proxy(memory, {
      get(target, key, receiver) {
        if (key === "listRuns")
          return (options: unknown) => {
            seen.push(options);
            return target.listRuns(options as never);
          };
        return Reflect.get(target, key, receiver);
      },
    });
    const engine = createEngine({ tools: [], store });
    await engine.runs.list({ threadId: "t", limit: 2 });
    expect(seen).toEqual([{ threadId: "t", limit: 2 }]);
    expect(await codeOf(() => engine.runs.list({ threadId: "t", extra: 1 } as never))).toBe("USAGE");
    expect(await codeOf(() => engine.runs.list({ threadId: 5 } as never))).toBe("USAGE");
  });
});

describe("an option the method does not know is USAGE with the nearest known one (docs review 1)", () => {
  it("a misspelt option of run, validate, open, resume, summarize, get or createEngine is refused", async () => {
    const engine = createEngine({ tools: [{ name: "t", run: () => 1 }] });
    const plan = [{ _tool: "t", _id: "a", _outputPath: "†state.a" }];
    // before, approvedhash was dropped and the plan ran unapproved; threadID ran on the thread "default"
    for (const [refused, key, near] of [
      [() => engine.run(plan, { approvedhash: "sha256:0" } as never), "approvedhash", "approvedHash"],
      [() => engine.run(plan, { threadID: "t" } as never), "threadID", "threadId"],
      [() => engine.validate(plan, { inputs: {} } as never), "inputs", "input"],
      [() => engine.open({ failfast: true } as never), "failfast", "failFast"],
      [() => engine.resume("r", { singal: undefined } as never), "singal", "signal"],
      [() => engine.summarize("t", { lastn: 2 } as never), "lastn", "lastN"],
      [() => engine.get("t", "†state.a", { ofset: 1 } as never), "ofset", "offset"],
      [() => createEngine({ tools: [], concurency: 1 } as never), "concurency", "concurrency"],
    ] as const) {
      let error: unknown;
      try {
        await refused();
      } catch (caught) {
        error = caught;
      }
      expect(error).toMatchObject({
        code: "USAGE",
        message: expect.stringContaining(`unknown option "${key}"`),
        hint: `did you mean "${near}"?`,
      });
    }
    expect(await engine.runs.list()).toEqual([]);
    await engine.close();
  });
});
