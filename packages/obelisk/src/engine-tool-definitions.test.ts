import { describe, expect, it } from "vitest";
import { thrownCode, thrownError } from "./__fixtures__/error-codes.js";
import { createEngine, type EngineOptions, type ObeliskError, type ToolDefinition } from "./index.js";

/** The error `createEngine` throws for these tools (fails the test when it accepts them). */
const refusal = (tools: unknown): ObeliskError => thrownError(() => createEngine({ tools } as EngineOptions));

// What the README says of the tools given to createEngine (the rules are the compiler's and the scheduler's).
describe("tool definitions given to createEngine", () => {
  it("a key a definition does not have is USAGE with the nearest one (execute → run), not a latent tool", () => {
    expect(refusal([{ name: "a", execute: () => 1 }])).toMatchObject({
      code: "USAGE",
      message: 'tool "a": unknown key "execute"',
      hint: 'did you mean "run"?',
    });
  });

  it("latent, when given, must agree with run", () => {
    expect(refusal([{ name: "a", latent: true, run: () => 1 }]).code).toBe("USAGE");
    expect(refusal([{ name: "a", latent: false }]).code).toBe("USAGE");
    expect(thrownCode(() => createEngine({ tools: [{ name: "a", latent: true }] }))).toBeUndefined();
  });

  it("a tools object's key must be the tool's name (a definition without one takes its key)", () => {
    expect(refusal({ b: { name: "a", run: () => 1 } })).toMatchObject({
      code: "USAGE",
      hint: expect.stringContaining('use the key "a"'),
    });
    const engine = createEngine({ tools: { a: { run: () => 1 } as unknown as ToolDefinition } });
    expect(engine.registry.names).toEqual(["a"]);
  });

  it("two tools with one name: the later wins, and engine.registry.warnings says so", async () => {
    const engine = createEngine({
      tools: [
        { name: "a", run: () => "first" },
        { name: "a", run: () => "second" },
      ],
    });
    expect(engine.registry.warnings).toEqual([
      {
        code: "REGISTRY_DUPLICATE_TOOL",
        severity: "warning",
        message: 'tool "a" is defined more than once; the later definition wins',
        pointer: "/1",
      },
    ]);
    expect((await engine.run([{ _tool: "a", _outputPath: "†state.a" }])).state).toEqual({ a: "second" });
  });

  it("retry.shouldRetry decides which thrown errors are retried, also under a plan's _retry; one that throws is no", async () => {
    const seen: [string, number][] = [];
    const flaky = (status: number, predicate: (error: unknown, attempt: number) => boolean) => ({
      name: `s${status}`,
      retry: { attempts: 3, backoffMs: 0, shouldRetry: predicate },
      run: () => {
        throw Object.assign(new Error(`HTTP ${status}`), { status });
      },
    });
    const byStatus = (error: unknown, attempt: number) => {
      seen.push([(error as Error).message, attempt]);
      return (error as { status?: number }).status !== 404;
    };
    const engine = createEngine({
      tools: [
        flaky(404, byStatus),
        flaky(503, byStatus),
        flaky(500, () => {
          throw new Error("bug in the predicate");
        }),
      ],
    });
    const result = await engine.run([
      { _tool: "s404", _id: "missing", _retry: { attempts: 5 } },
      { _tool: "s503", _id: "down" },
      { _tool: "s500", _id: "broken" },
    ]);
    expect(result.calls.missing).toMatchObject({
      status: "failed",
      attempts: 1,
      error: { message: "HTTP 404" },
    });
    expect(result.calls.down).toMatchObject({ status: "failed", attempts: 3 });
    expect(result.calls.broken).toMatchObject({
      status: "failed",
      attempts: 1,
      error: { message: "HTTP 500" },
    });
    expect(seen).toEqual([
      ["HTTP 404", 1],
      ["HTTP 503", 1],
      ["HTTP 503", 2],
    ]);
    await engine.close();
  });

  it("approvalParams and idempotent: false guard the tool against the plan, at validation", async () => {
    const refunds: string[] = [];
    const engine = createEngine({
      tools: [
        {
          name: "issueRefund",
          input: {
            type: "object",
            properties: { orderId: { type: "string" }, approval: { type: "object" } },
            required: ["orderId"],
          },
          approvalParams: ["approval"],
          idempotent: false,
          retry: { attempts: 2, backoffMs: 0 },
          run: (args: unknown) => refunds.push((args as { orderId: string }).orderId),
        },
      ],
    });
    const codes = async (call: Record<string, unknown>) =>
      (
        await engine.validate({ type: "plan", plan: [{ _tool: "issueRefund", orderId: "o1", ...call }] })
      ).diagnostics
        .filter((d) => d.severity === "error")
        .map((d) => `${d.code} ${d.pointer}`);
    const approval = "†state.approvals.refund_o1";
    expect(await codes({ approval: { by: "ops" } })).toEqual(["PARAM_INVALID /plan/0/approval"]);
    // required in every call, though the tool's own schema leaves it optional
    expect(await codes({})).toEqual([expect.stringMatching(/^PARAM_MISSING /)]);
    expect(await codes({ approval, _rerun: true })).toEqual(["CALL_SHAPE /plan/0/_rerun"]);
    expect(await codes({ approval, _retry: { attempts: 3 } })).toEqual([
      "CALL_SHAPE /plan/0/_retry/attempts",
    ]);
    expect(await codes({ approval, _retry: { attempts: 2 } })).toEqual([]);
    await engine.set("t", approval, { by: "ops" });
    const result = await engine.run([{ _tool: "issueRefund", _id: "r", orderId: "o1", approval }], {
      threadId: "t",
    });
    expect(result.calls.r?.status).toBe("succeeded");
    expect(refunds).toEqual(["o1"]);
    await engine.close();
  });
});
