import { ObeliskError } from "@obelisk/core";
import { describe, expect, it } from "vitest";
import { createEngine, type OpenOptions, type RunOptions, type ValidateOptions } from "./index.js";

const echo = { name: "echo", run: () => 1 };
const plan = [{ _tool: "echo", _id: "e", _outputPath: "†state.e" }];

/** The error `work` throws or rejects with. */
async function refusal(work: () => unknown): Promise<ObeliskError> {
  try {
    await work();
  } catch (error) {
    if (ObeliskError.is(error)) return error;
    throw error;
  }
  throw new Error("expected a refusal");
}

// Decision 0030, amended (stop 27): idleTimeoutMs closes an idle *stream*; run, start, validate and
// resume have none, and used to accept the option and ignore it.
describe("idleTimeoutMs belongs to open", () => {
  it("run, start, validate and resume refuse it (USAGE naming it and open), before anything is recorded", async () => {
    const engine = createEngine({ tools: [echo] });
    const { runId } = await engine.run(plan, { threadId: "t" });
    const given = { threadId: "t", idleTimeoutMs: 1000 } as never;
    const refusals = [
      await refusal(() => engine.run(plan, given)),
      await refusal(() => engine.start(plan, given).result),
      await refusal(() => engine.validate(plan, given)),
      await refusal(() => engine.resume(runId, { idleTimeoutMs: 1000 } as never)),
    ];
    for (const error of refusals) {
      expect(error.code).toBe("USAGE");
      expect(error.message).toMatch(/idleTimeoutMs.*open/);
      expect(error.hint).toContain("engine.open(");
    }
    expect(await engine.runs.list()).toHaveLength(1);
    // open still takes it
    const stream = await engine.open({ threadId: "s", idleTimeoutMs: 1000 });
    expect((await stream.close()).status).toBe("succeeded");
    await engine.close();
  });

  it("the types leave it out of RunOptions and ValidateOptions (open's OpenOptions has it)", () => {
    // @ts-expect-error idleTimeoutMs is not a RunOptions key
    const run: RunOptions = { idleTimeoutMs: 1 };
    // @ts-expect-error idleTimeoutMs is not a ValidateOptions key
    const validate: ValidateOptions = { idleTimeoutMs: 1 };
    const open: OpenOptions = { idleTimeoutMs: 1 };
    expect([run, validate, open]).toHaveLength(3);
  });
});

// Decision 0090: a batch plan declares its input schema in its document; the option is a stream's.
describe("inputSchema belongs to open", () => {
  const schema = { type: "object", properties: { n: { type: "number" } }, required: ["n"] };

  it("run, start, validate and resume refuse it (USAGE naming the plan's own inputSchema and open), before anything is recorded", async () => {
    const engine = createEngine({ tools: [echo] });
    const { runId } = await engine.run(plan, { threadId: "t" });
    const given = { threadId: "t", input: { n: "x" }, inputSchema: schema } as never;
    const refusals = [
      await refusal(() => engine.run(plan, given)),
      await refusal(() => engine.start(plan, given).result),
      await refusal(() => engine.validate(plan, given)),
      await refusal(() => engine.resume(runId, { inputSchema: schema } as never)),
    ];
    for (const [index, error] of refusals.entries()) {
      const method = ["run", "start", "validate", "resume"][index];
      expect(error.code).toBe("USAGE");
      expect(error.message).toBe(
        `inputSchema is an option of open (a streamed plan has no document to declare it in): ${method} would ignore it and check the input against the plan's own inputSchema only`,
      );
      expect(error.hint).toContain('({ type: "plan", inputSchema: {…}, plan: […] })');
      expect(error.hint).toContain("engine.open({ inputSchema })");
    }
    expect(await engine.runs.list()).toHaveLength(1);
    await engine.close();
  });

  it("an unknown option's hint lists the options the method takes, not the open-only ones", async () => {
    const engine = createEngine({ tools: [echo] });
    const run = await refusal(() => engine.run(plan, { zzz: 1 } as never));
    expect(run.hint).toBe(
      "the options of run are threadId, input, context, approvedHash, signal, failFast, rerun, onEvent",
    );
    const open = await refusal(() => engine.open({ zzz: 1 } as never));
    expect(open.hint).toBe(
      "the options of open are threadId, input, context, signal, failFast, rerun, onEvent, inputSchema, idleTimeoutMs",
    );
    await engine.close();
  });

  it('open takes it; its PLAN_INVALID for an input breaking it says planHash "sha256:" (no call, no plan yet)', async () => {
    const engine = createEngine({ tools: [echo] });
    const error = await refusal(() => engine.open({ threadId: "s", input: { n: "x" }, inputSchema: schema }));
    expect(error.code).toBe("PLAN_INVALID");
    expect(error.data).toMatchObject({ ok: false, planHash: "sha256:" });
    const stream = await engine.open({ threadId: "s", input: { n: 1 }, inputSchema: schema });
    expect((await stream.close()).status).toBe("succeeded");
    await engine.close();
  });
});
