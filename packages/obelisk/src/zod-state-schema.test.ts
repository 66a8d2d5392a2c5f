import { toJsonSchema } from "@obelisk/compiler";
import { asThreadId } from "@obelisk/core";
import { describe, expect, expectTypeOf, it } from "vitest";
import { z } from "zod";
import { thrownError } from "./__fixtures__/error-codes.js";
import { createEngine, defineTool, type Engine, type PartialState, type RunResult } from "./index.js";

// createEngine({ stateSchema: z.object(…) }) (decision 0035, amended): the zod schema is converted once, as a
// tool's input is, and the state is typed from it. Type tests run in the package's typecheck; each was seen
// to fail when the type it guards was broken.

const appState = z.object({
  user: z.object({ name: z.string(), summary: z.string(), tags: z.array(z.string()) }),
  count: z.number().int(),
});
/** The same shape as a type, as a host that declares it apart from the schema writes it. */
interface AppState {
  user: { name: string; summary: string; tags: string[] };
  count: number;
}

const summarizeUser = defineTool({
  name: "summarizeUser",
  input: z.object({ name: z.string() }),
  run: ({ name }) => ({ name, summary: `${name} likes tea`, tags: ["tea"] }),
});
/** Returns whatever it is given: a plan can route any value anywhere. */
const echo = defineTool({
  name: "echo",
  input: { type: "object", properties: { value: {} } },
  run: (args) => args.value,
});
/** Returns a string, as its output schema says. */
const label = defineTool({ name: "label", output: z.string(), run: () => "seven" });
const tools = [summarizeUser, echo, label];

describe("createEngine({ stateSchema: z.object(…) }): the schema checked at run time", () => {
  it("refuses a write of another shape with OUTPUT_SCHEMA_VIOLATION, as the JSON form does", async () => {
    const engine = createEngine({ tools, stateSchema: appState });
    const bad = await engine.run([{ _tool: "echo", value: { name: 7 }, _outputPath: "†state.user" }], {
      threadId: "t",
    });
    expect(bad.errors.map((error) => error.error.code)).toEqual(["OUTPUT_SCHEMA_VIOLATION"]);
    expect(bad.state).toEqual({});
    const fraction = await engine.run([{ _tool: "echo", value: 1.5, _outputPath: "†state.count" }], {
      threadId: "t",
    });
    expect(fraction.errors.map((error) => error.error.code)).toEqual(["OUTPUT_SCHEMA_VIOLATION"]);
    const good = await engine.run([{ _tool: "summarizeUser", name: "Ada", _outputPath: "†state.user" }], {
      threadId: "t",
    });
    expect(good.errors).toEqual([]);
    expect(good.state.user?.summary).toBe("Ada likes tea");
  });

  it("the converted JSON Schema is what the thread, validate and set get", async () => {
    const engine = createEngine({ tools, stateSchema: appState });
    // validate's static check of writes against the state schema
    const validation = await engine.validate([{ _tool: "label", _outputPath: "†state.count" }]);
    expect(validation.diagnostics.map((d) => [d.code, d.pointer])).toEqual([
      ["REF_TYPE_MISMATCH", "/0/_outputPath"],
    ]);
    // set on a thread no run has touched
    await expect(engine.set("fresh", "†state.count", "seven")).rejects.toMatchObject({
      code: "OUTPUT_SCHEMA_VIOLATION",
    });
    // the store holds JSON Schema on the thread, the conversion a tool's input gets (with zod's safe-integer
    // bounds kept: the JSON Schema is the state's only check)
    await engine.run([], { threadId: "t" });
    const thread = await engine.store.getThread(asThreadId("t"));
    expect(thread?.stateSchema).toEqual(
      toJsonSchema(appState, { what: "stateSchema", jsonSchemaOnly: true }),
    );
    expect(thread?.stateSchema).toMatchObject({ type: "object", properties: { count: { type: "integer" } } });
  });

  it("a zod type no JSON value satisfies is USAGE at createEngine, naming stateSchema and the field", () => {
    const stateSchema = z.object({ session: z.object({ startedAt: z.date() }) });
    // @ts-expect-error the type check refuses it too: a Date would come back from the store a string
    const error = thrownError(() => createEngine({ tools, stateSchema }), "USAGE");
    expect(error.message).toContain("createEngine: stateSchema");
    expect(error.message).toContain("session.startedAt");
    expect(error.message).toContain("z.date()");
    expect(error.hint).toContain("z.iso.datetime()");
  });

  it("a type only code checks (z.custom, z.instanceof, z.promise) is USAGE: its type would claim what no write check holds", () => {
    const custom = z.object({ name: z.custom<string>((value) => typeof value === "string") });
    const error = thrownError(() => createEngine({ tools, stateSchema: custom }), "USAGE");
    expect(error.message).toContain("createEngine: stateSchema");
    expect(error.message).toContain("name is z.custom() or z.instanceof()");
    expect(error.hint).toContain("JSON Schema types");
    class Money {
      cents = 0;
    }
    const nested = z.object({ wallet: z.object({ balance: z.instanceof(Money).optional() }) });
    // its type looks like JSON (a `cents` number): only code checks it is a Money
    expect(thrownError(() => createEngine({ tools, stateSchema: nested }), "USAGE").message).toContain(
      "wallet.balance",
    );
    // a tool's input keeps them: zod parses the arguments, so the check runs there
    expect(() => toJsonSchema(custom, { what: "tool input" })).not.toThrow();
  });

  it("a bad stateSchema is USAGE whatever else is right: not a schema, a zod 3 schema", () => {
    const notSchema = thrownError(() => createEngine({ tools, stateSchema: "object" as never }), "USAGE");
    expect(notSchema.message).toContain("stateSchema");
    const zod3 = { _def: {}, safeParse: () => ({}) } as never;
    expect(thrownError(() => createEngine({ tools, stateSchema: zod3 }), "USAGE").message).toContain(
      "zod 3 schemas are not supported",
    );
  });
});

describe("createEngine({ stateSchema: z.object(…) }): the state typed from the schema", () => {
  it("infers PartialState<z.input<schema>>, no type argument", async () => {
    const engine = createEngine({ tools, stateSchema: appState });
    expectTypeOf(engine).toEqualTypeOf<Engine<PartialState<z.input<typeof appState>>>>();
    expectTypeOf(engine).toEqualTypeOf<Engine<PartialState<AppState>>>();
    const result = await engine.run([{ _tool: "summarizeUser", name: "Bo", _outputPath: "†state.user" }], {
      threadId: "t",
    });
    expectTypeOf(result).toEqualTypeOf<RunResult<PartialState<AppState>>>();
    expectTypeOf(result.state.user?.tags).toEqualTypeOf<readonly string[] | undefined>();
    expect(result.state.user?.tags).toEqual(["tea"]);
    const user = await engine.get("t", "†state.user");
    if (!user.found) throw new Error("expected †state.user");
    expectTypeOf(user.value.name).toEqualTypeOf<string | undefined>();
    expect(user.value.name).toBe("Bo");
    // still an Engine: code written for Engine takes it
    expectTypeOf(engine).toExtend<Engine>();
  });

  it("types what is stored: zod's input, not its parse (no transforms, defaults or coercion applied)", () => {
    const stateSchema = z.object({
      length: z.string().transform((text) => text.length),
      level: z.number().default(1),
      loose: z.coerce.number(),
      note: z.string().nullable(),
    });
    const engine = createEngine({ tools, stateSchema });
    expectTypeOf(engine).toEqualTypeOf<
      Engine<{
        readonly length?: string;
        readonly level?: number | undefined;
        readonly loose?: unknown;
        readonly note?: string | null;
      }>
    >();
  });

  it("a record is a state schema too; a schema of non-objects, or of a function, is not", () => {
    const byId = createEngine({ tools, stateSchema: z.record(z.string(), z.number()) });
    expectTypeOf(byId).toEqualTypeOf<Engine<PartialState<Record<string, number>>>>();
    // @ts-expect-error a thread's state is an object
    createEngine({ tools, stateSchema: z.string() });
    const withFunction = z.object({ run: z.function() });
    // @ts-expect-error a function is not JSON (and is USAGE at run time)
    expect(thrownError(() => createEngine({ tools, stateSchema: withFunction }), "USAGE").message).toContain(
      "run",
    );
  });

  it("with a type argument, the zod schema must hold only values of that type", async () => {
    const engine = createEngine<AppState>({ tools, stateSchema: appState });
    expectTypeOf(engine).toEqualTypeOf<Engine<PartialState<AppState>>>();
    // a wider type than the schema's is fine: every value the schema takes is one
    createEngine<{ user?: { name: string } }>({
      tools,
      stateSchema: z.object({ user: z.object({ name: z.string() }) }),
    });
    // @ts-expect-error the schema lets a number be written where the type says string
    createEngine<AppState>({ tools, stateSchema: appState.extend({ count: z.string() }) });
    // @ts-expect-error the type has a key the schema does not write
    createEngine<AppState & { extra: string }>({ tools, stateSchema: appState });
    await engine.close();
  });
});
