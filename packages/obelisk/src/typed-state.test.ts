import { describe, expect, expectTypeOf, it } from "vitest";
import { z } from "zod";
import {
  agentTools,
  createEngine,
  defineTool,
  type Engine,
  type GetValueResult,
  type GetWholeValueResult,
  type JsonObject,
  type PartialState,
  type RunResult,
} from "./index.js";

// Type-level tests (decision 0035): the package's typecheck (`tsc -p tsconfig.json`, which includes the
// tests) fails when a typed read loses its type or the default engine's types change; the runtime part
// checks that what the types promise is what a run gives.

/** The state shape a host declares, as an interface (no index signature). */
interface AppState {
  user: { name: string; summary: string; tags: string[] };
  count: number;
}
/** The same shape as the JSON Schema that holds every write to it at run time. */
const stateSchema = {
  type: "object",
  properties: {
    user: {
      type: "object",
      properties: {
        name: { type: "string" },
        summary: { type: "string" },
        tags: { type: "array", items: { type: "string" } },
      },
      required: ["name", "summary", "tags"],
    },
    count: { type: "integer" },
  },
};

const summarizeUser = defineTool({
  name: "summarizeUser",
  input: z.object({ name: z.string() }),
  output: z.object({ name: z.string(), summary: z.string(), tags: z.array(z.string()) }),
  run: ({ name }) => ({ name, summary: `${name} likes tea`, tags: ["tea"] }),
});
/** Returns whatever it is given: a plan can route any value anywhere. */
const echo = defineTool({
  name: "echo",
  input: { type: "object", properties: { value: {} } },
  run: (args) => args.value,
});
const tools = [summarizeUser, echo];

describe("createEngine<State>: the state typed as a deep partial of the host's shape", () => {
  it("RunResult.state is PartialState<State>: read without casts, absent before its writer ran", async () => {
    const engine = createEngine<AppState>({ tools, stateSchema });
    expectTypeOf(engine).toEqualTypeOf<Engine<PartialState<AppState>>>();
    const before = await engine.run([{ _tool: "echo", value: 1, _outputPath: "†state.count" }], {
      threadId: "t",
    });
    expectTypeOf(before).toEqualTypeOf<RunResult<PartialState<AppState>>>();
    // no writer of †state.user ran yet: the type says it may be absent, and it is
    expect(before.state.user?.summary).toBeUndefined();
    expect(before.state.count).toBe(1);

    const after = await engine.run([{ _tool: "summarizeUser", name: "Ada", _outputPath: "†state.user" }], {
      threadId: "t",
    });
    const summary = after.state.user?.summary;
    expectTypeOf(summary).toEqualTypeOf<string | undefined>();
    expect(summary).toBe("Ada likes tea");
    expectTypeOf(after.state.user?.tags).toEqualTypeOf<readonly string[] | undefined>();

    // start and a streaming run's close give the same typed result
    const started = await engine.start([], { threadId: "t" }).result;
    expectTypeOf(started.state).toEqualTypeOf<PartialState<AppState>>();
    const stream = await engine.open({ threadId: "s" });
    expectTypeOf(stream.close).returns.resolves.toEqualTypeOf<RunResult<PartialState<AppState>>>();
    expect((await stream.close()).state).toEqual({});
  });

  it("PartialState makes every key optional at every depth; arrays keep their element types", () => {
    expectTypeOf<PartialState<AppState>>().toEqualTypeOf<{
      readonly user?: {
        readonly name?: string;
        readonly summary?: string;
        readonly tags?: readonly string[];
      };
      readonly count?: number;
    }>();
    expectTypeOf<PartialState<{ list: { id: string }[] }>>().toEqualTypeOf<{
      readonly list?: readonly { readonly id?: string }[];
    }>();
    expectTypeOf<PartialState<{ note: string | null }>>().toEqualTypeOf<{ readonly note?: string | null }>();
  });

  it("the schema is what holds the type: a write of another shape fails and leaves the state as it was", async () => {
    const engine = createEngine<AppState>({ tools, stateSchema });
    const result = await engine.run([{ _tool: "echo", value: { name: 7 }, _outputPath: "†state.user" }], {
      threadId: "t",
    });
    expect(result.errors.map((error) => error.error.code)).toEqual(["OUTPUT_SCHEMA_VIOLATION"]);
    expect(result.state).toEqual({});
  });

  it("get of †state and of †state.<key> is typed; every other reference stays JSON", async () => {
    const engine = createEngine<AppState>({ tools, stateSchema });
    await engine.run([{ _tool: "summarizeUser", name: "Bo", _outputPath: "†state.user" }], { threadId: "t" });

    const user = await engine.get("t", "†state.user");
    if (!user.found) throw new Error("expected †state.user");
    expectTypeOf(user.value).toEqualTypeOf<PartialState<AppState["user"]>>();
    expect(user.value.name).toBe("Bo");
    const whole = await engine.get("t", "†state");
    if (!whole.found) throw new Error("expected the state");
    expectTypeOf(whole.value).toEqualTypeOf<PartialState<AppState>>();
    expect(whole.value.user?.tags).toEqual(["tea"]);
    const count = await engine.get("t", "†state.count");
    expect(count).toEqual({ found: false });
    expectTypeOf(count.value).toEqualTypeOf<number | undefined>();

    // a path, a stored call output, a reference only known at run time, a page: JSON as before
    expectTypeOf(() =>
      engine.get("t", "†state.user.name"),
    ).returns.resolves.toEqualTypeOf<GetWholeValueResult>();
    expectTypeOf(() => engine.get("t", "†calls.c1")).returns.resolves.toEqualTypeOf<GetWholeValueResult>();
    const reference: string = "†state.user";
    expectTypeOf(() => engine.get("t", reference)).returns.resolves.toEqualTypeOf<GetWholeValueResult>();
    expectTypeOf(() =>
      engine.get("t", "†state.user", { limit: 1 }),
    ).returns.resolves.toEqualTypeOf<GetValueResult>();
  });

  it("a key that is not one name (a dot in it, an index signature) is not typed as a key", () => {
    interface Odd {
      "a.b": number;
      byId: Record<string, number>;
    }
    const engine = createEngine<Odd>({ tools, stateSchema: { type: "object" } });
    // †state.a.b reads the path a → b, not the key "a.b"
    expectTypeOf(() => engine.get("t", "†state.a.b")).returns.resolves.toEqualTypeOf<GetWholeValueResult>();
    const byId = () => engine.get("t", "†state.byId");
    expectTypeOf(byId).returns.resolves.toEqualTypeOf<
      | {
          readonly found: false;
          readonly value?: never;
          readonly items?: never;
          readonly entries?: never;
          readonly text?: never;
        }
      | {
          readonly found: true;
          readonly value: { readonly [id: string]: number | undefined };
          readonly items?: never;
          readonly entries?: never;
          readonly text?: never;
        }
    >();
  });

  it("a typed engine is still an Engine: agentTools and code written for Engine take it", () => {
    const engine = createEngine<AppState>({ tools, stateSchema });
    expectTypeOf(engine).toExtend<Engine>();
    const plain: Engine = engine;
    expect(agentTools(plain, "t")).toHaveLength(4);
    expect(agentTools(engine, "t")).toHaveLength(4);
  });

  it("needs stateSchema and a JSON-shaped type; without a type argument nothing changes", async () => {
    // @ts-expect-error the state type is typed only where a schema holds the writes to it
    createEngine<AppState>({ tools });
    // @ts-expect-error a Date is stored as a string: the type would lie
    createEngine<{ at: Date }>({ tools, stateSchema: {} });
    // @ts-expect-error a function is not JSON
    createEngine<{ run: () => void }>({ tools, stateSchema: {} });

    const plain = createEngine({ tools });
    expectTypeOf(plain).toEqualTypeOf<Engine>();
    expectTypeOf<Engine>().toEqualTypeOf<Engine<JsonObject>>();
    expectTypeOf(createEngine({ tools, stateSchema })).toEqualTypeOf<Engine>();
    expectTypeOf<ReturnType<typeof createEngine>>().toEqualTypeOf<Engine>();
    expectTypeOf<Parameters<typeof createEngine>>().toEqualTypeOf<[import("./index.js").EngineOptions]>();
    const result = await plain.run([], { threadId: "t" });
    expectTypeOf(result).toEqualTypeOf<RunResult>();
    expectTypeOf(result.state).toEqualTypeOf<JsonObject>();
    expectTypeOf(() => plain.get("t", "†state")).returns.resolves.toEqualTypeOf<GetWholeValueResult>();
    expectTypeOf(() => plain.get("t", "†state.user")).returns.resolves.toEqualTypeOf<GetWholeValueResult>();
    expect(result.state).toEqual({});
  });
});
