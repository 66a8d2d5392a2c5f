import { describe, expect, it } from "vitest";
import { codeOf } from "./__fixtures__/error-codes.js";
import { createEngine } from "./index.js";

const echo = { name: "echo", run: () => 1 };
const plan = [{ _tool: "echo", _id: "e", _outputPath: "†state.e" }];

describe("run options are checked before anything is locked or recorded (SPEC §11)", () => {
  it.each([
    ["threadId: a number", { threadId: 5 }],
    ["threadId: an object", { threadId: { id: "t" } }],
    ["threadId: empty", { threadId: "" }],
    ["signal: a plain object", { signal: {} }],
    [
      "signal: a look-alike without removeEventListener",
      { signal: { aborted: false, addEventListener() {} } },
    ],
    ["failFast: a string", { failFast: "yes" }],
    ["onEvent: a string", { onEvent: "log" }],
    ["approvedHash: a number", { approvedHash: 1 }],
    ["the options: an array", []],
  ])("%s is USAGE from run, start, validate and open", async (_label, options) => {
    const engine = createEngine({ tools: [echo] });
    const given = options as never;
    expect(await codeOf(() => engine.run(plan, given))).toBe("USAGE");
    expect(await codeOf(() => engine.start(plan, given).result)).toBe("USAGE");
    expect(await codeOf(() => engine.validate(plan, given))).toBe("USAGE");
    expect(await codeOf(() => engine.open(given))).toBe("USAGE");
    expect(await engine.runs.list()).toEqual([]);
    expect((await engine.run(plan)).status).toBe("succeeded");
  });

  it("a signal look-alike whose addEventListener throws is USAGE, nothing recorded", async () => {
    const engine = createEngine({ tools: [echo] });
    const signal = {
      aborted: false,
      addEventListener() {
        throw null;
      },
      removeEventListener() {},
    } as unknown as AbortSignal;
    expect(await codeOf(() => engine.run(plan, { threadId: "t", signal }))).toBe("USAGE");
    expect(await codeOf(() => engine.open({ threadId: "t", signal }))).toBe("USAGE");
    expect(await engine.runs.list()).toEqual([]);
    await engine.close();
  });

  it("a signal whose removeEventListener throws: the run's result stands and engine.close() settles", async () => {
    const engine = createEngine({ tools: [echo] });
    const signal = new AbortController().signal;
    signal.removeEventListener = () => {
      throw new TypeError("not today");
    };
    expect((await engine.run(plan, { threadId: "t", signal })).status).toBe("succeeded");
    const stream = await engine.open({ threadId: "u", signal });
    stream.add({ _tool: "echo", _id: "e" });
    expect((await stream.close()).status).toBe("succeeded");
    await engine.close();
  });

  it("start's events of a refused run end with its error, not empty (review s33r F13)", async () => {
    const engine = createEngine({ tools: [echo] });
    const handle = engine.start([{ _tool: "nope" }], { threadId: "t" });
    const iterate = async () => {
      for await (const _event of handle.events);
    };
    expect(await codeOf(iterate)).toBe("PLAN_INVALID");
    expect(await codeOf(handle.result)).toBe("PLAN_INVALID");
  });

  it("resume checks its run id and options too", async () => {
    const engine = createEngine({ tools: [echo] });
    const { runId } = await engine.run(plan, { threadId: "t" });
    expect(await codeOf(() => engine.resume(5 as never))).toBe("USAGE");
    expect(await codeOf(() => engine.resume(runId, { signal: {} } as never))).toBe("USAGE");
    expect((await engine.resume(runId)).calls.e?.status).toBe("satisfied");
  });

  it("resume refuses threadId and input (it re-runs the recorded ones) with USAGE and a hint", async () => {
    const engine = createEngine({ tools: [echo] });
    const { runId } = await engine.run(plan, { threadId: "t", input: { v: 1 } });
    for (const options of [{ threadId: "elsewhere" }, { input: { v: 2 } }, { threadId: "t", input: {} }]) {
      const error = await engine.resume(runId, options as never).catch((thrown: unknown) => thrown);
      expect(error).toMatchObject({ code: "USAGE", hint: expect.stringContaining("run()") });
    }
    expect(await engine.runs.list()).toHaveLength(1);
  });

  it.each([[""], [5], [undefined]])(
    "the variables API refuses the thread id %j with USAGE",
    async (threadId) => {
      const engine = createEngine({ tools: [echo] });
      const thread = threadId as never;
      expect(await codeOf(() => engine.summarize(thread))).toBe("USAGE");
      expect(await codeOf(() => engine.get(thread, "†state.e"))).toBe("USAGE");
      expect(await codeOf(() => engine.set(thread, "†state.e", 1))).toBe("USAGE");
      expect(await codeOf(() => engine.reset(thread))).toBe("USAGE");
      expect(await codeOf(() => engine.keepLastN(thread, 1))).toBe("USAGE");
    },
  );
});
