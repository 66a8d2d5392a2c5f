import { describe, expect, it } from "vitest";
import { createEngine, ObeliskError } from "./index.js";

const echo = { name: "echo", input: { type: "object", properties: { x: {} } }, run: () => 1 };

/** The ObeliskError `work` rejects with (anything else fails the test). */
async function errorOf(work: () => Promise<unknown>): Promise<ObeliskError> {
  const error = await work().then(
    () => new Error("it succeeded"),
    (thrown: unknown) => thrown,
  );
  if (!ObeliskError.is(error)) throw error;
  return error;
}

describe("errors a host meets say what to do (review s33r, 'no hint' list)", () => {
  it("an empty thread id, in run's options and in get", async () => {
    const engine = createEngine({ tools: [echo] });
    for (const error of [
      await errorOf(() => engine.run([], { threadId: "" })),
      await errorOf(() => engine.get("", "†state.x")),
    ]) {
      expect(error.code).toBe("USAGE");
      expect(error.hint).toMatch(/e\.g\. "user-42"/);
    }
  });

  it("add after the stream's close()", async () => {
    const engine = createEngine({ tools: [echo] });
    const stream = await engine.open({ threadId: "t" });
    await stream.close();
    const error = (() => {
      try {
        stream.add({ _tool: "echo", x: 1 });
      } catch (thrown) {
        return thrown as ObeliskError;
      }
      throw new Error("add was taken");
    })();
    expect(error.message).toBe("the streaming run is closed: no more calls can be added");
    expect(error.hint).toMatch(/engine\.open\(\{ threadId \}\).*engine\.run/);
  });

  it("a run after engine.close()", async () => {
    const engine = createEngine({ tools: [echo] });
    await engine.close();
    const error = await errorOf(() => engine.run([], { threadId: "t" }));
    expect([error.code, error.message]).toEqual(["STORE_CLOSED", "the engine is closed"]);
    expect(error.hint).toMatch(/create a new one \(createEngine\)/);
  });

  it("run's PLAN_INVALID hint starts with the first error's own hint", async () => {
    const engine = createEngine({ tools: [echo] });
    const error = await errorOf(() => engine.run([{ _tool: "ecko", x: 1 }], { threadId: "t" }));
    expect(error.code).toBe("PLAN_INVALID");
    expect(error.hint).toMatch(/^did you mean "echo"\? — every diagnostic .* is in error\.data\.diagnostics/);
  });

  it("open's refused input names the field and what its schema says", async () => {
    const engine = createEngine({ tools: [echo] });
    const inputSchema = { type: "object", properties: { a: { type: "number" } } };
    const error = await errorOf(() => engine.open({ threadId: "t", input: { a: "x" }, inputSchema }));
    expect(error.code).toBe("PLAN_INVALID");
    expect(error.message).toMatch(/^the input breaks its schema \(1 error\): .*\/a.*must be number/);
  });

  it("a write past a list's end fails the call OUTPUT_WRITE_FAILED saying what a write may do", async () => {
    const engine = createEngine({ tools: [{ ...echo, run: () => "x" }] });
    // an earlier call writing below the list may lengthen it, so validation lets the plan run (decision 0107)
    const result = await engine.run(
      [
        { _tool: "echo", x: 1, _outputPath: "†state.list[0]" },
        { _tool: "echo", x: "†state.list[0]", _outputPath: "†state.list[5]" },
      ],
      { threadId: "t" },
    );
    expect(result.calls.echo$2?.error).toEqual({
      code: "OUTPUT_WRITE_FAILED",
      message:
        '†state.list[5]: cannot write at index 5 of an array of length 1: an index replaces an item (0 to 0) or adds one at the end (1), or append with _outputMethod "push"',
    });
  });

  it("rerun: an id that is no string is named by its index; a long unknown id is cut; validate refuses what run refuses", async () => {
    const engine = createEngine({ tools: [echo] });
    const plan = [{ _tool: "echo", _id: "a", x: 1 }];
    const numbered = await errorOf(() => engine.run(plan, { threadId: "t", rerun: [5] as never }));
    expect(numbered.message).toBe("rerun[0] must be a call id (a non-empty string), not a number");
    const long = await errorOf(() => engine.run(plan, { threadId: "t", rerun: ["z".repeat(100_000)] }));
    expect(long.message).toMatch(/… \(100000 characters\)$/);
    expect(long.message.length).toBeLessThan(200);
    const validated = await errorOf(() => engine.validate(plan, { rerun: ["zz"] } as never));
    expect([validated.code, validated.message]).toEqual([
      "USAGE",
      'rerun names a call the plan does not have: "zz"',
    ]);
    expect((await engine.validate(plan, { rerun: ["a"] } as never)).ok).toBe(true);
  });
});
