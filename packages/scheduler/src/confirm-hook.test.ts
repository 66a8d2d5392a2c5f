import { createToolRegistry, type ToolContext } from "@obelisk/compiler";
import { asRunId } from "@obelisk/core";
import { describe, expect, it } from "vitest";
import { flush } from "./__fixtures__/deferred.js";
import { recordEvents } from "./__fixtures__/run-events.js";
import { runPlan, statusOf } from "./__fixtures__/run-plan.js";
import type { ConfirmDecision, ConfirmHook } from "./confirm-types.js";

const plan = [
  { _tool: "val", _id: "ok", v: 1, _outputPath: "†state.ok" },
  { _tool: "val", _id: "ask", v: 2, _outputPath: "†state.ask" },
];

function registryCounting(ran: string[]) {
  return createToolRegistry([
    {
      name: "val",
      run: (args: { v?: unknown }, context: ToolContext) => {
        ran.push(context.callId);
        return args.v;
      },
    },
  ]);
}

/** A hook answering `answer` for call `ask` (synchronously, or as a resolved promise) and approving others. */
function hookAnswering(answer: unknown, async: boolean): ConfirmHook {
  return (request) => {
    const value = (request.callId === "ask" ? answer : { action: "approve" }) as ConfirmDecision;
    return async ? Promise.resolve(value) : value;
  };
}

const throwingGetter = {
  get action(): string {
    throw new Error("getter throws");
  },
};

describe("confirm hook answers that are not decisions (M4)", () => {
  for (const async of [false, true]) {
    for (const [label, answer] of [
      ["undefined", undefined],
      ["null", null],
      ["a string", "approve"],
      ["an object with a throwing action getter", throwingGetter],
      ["an unknown action", { action: "maybe" }],
      ["approve with params (the host meant modify?)", { action: "approve", params: { v: 3 } }],
    ] as const) {
      it(`${label} (${async ? "async" : "sync"}) fails only that call with CONFIRM_ERROR, with a record`, async () => {
        const ran: string[] = [];
        const { result, store } = await runPlan(registryCounting(ran), plan, {
          confirm: hookAnswering(answer, async),
        });
        expect(result.status).toBe("failed");
        expect(statusOf(result)).toEqual({
          ok: ["succeeded", undefined],
          ask: ["failed", "CONFIRM_ERROR"],
        });
        expect(ran).toEqual(["ok"]);
        const records = await store.listCallRecords(asRunId("r"));
        expect(records.map((record) => [record.callId, record.status, record.error?.code])).toContainEqual([
          "ask",
          "failed",
          "CONFIRM_ERROR",
        ]);
        expect(result.state).toEqual({ ok: 1 });
      });
    }
  }

  it("a reject without a reason still rejects the call, with a reason in the result (SPEC §7)", async () => {
    const ran: string[] = [];
    const { result } = await runPlan(registryCounting(ran), plan, {
      confirm: hookAnswering({ action: "reject" }, false),
    });
    expect(statusOf(result).ask).toEqual(["rejected", undefined]);
    expect(result.calls.find((call) => call.callId === "ask")?.reason).toMatch(/no reason given/);
    expect(result.status).toBe("succeeded");
  });

  it("a reject's reason is kept as given up to 2,000 characters, and cut there", async () => {
    const cases: readonly (readonly [string, string])[] = [
      ["needs a human", "needs a human"],
      ["x".repeat(5_000), "x".repeat(2_000)],
    ];
    for (const [reason, kept] of cases) {
      const { result } = await runPlan(registryCounting([]), plan, {
        confirm: hookAnswering({ action: "reject", reason }, false),
      });
      const ask = result.calls.find((call) => call.callId === "ask");
      expect(ask?.status).toBe("rejected");
      expect(ask?.reason?.startsWith(kept)).toBe(true);
      expect(ask?.reason?.length).toBeLessThanOrEqual(2_001);
    }
  });

  it("a reject whose reason is not a string still rejects, with the reason as text", async () => {
    for (const [reason, text] of [
      [{ why: "no" }, '{"why":"no"}'],
      [42, "42"],
      [new Error("needs a human"), "needs a human"],
      [null, "rejected by the confirm hook (no reason given)"],
    ] as const) {
      const { result } = await runPlan(registryCounting([]), plan, {
        confirm: hookAnswering({ action: "reject", reason }, false),
      });
      const ask = result.calls.find((call) => call.callId === "ask");
      // before, the reason was "[object Object]"
      expect(ask).toMatchObject({ status: "rejected", reason: text });
    }
  });

  it("a reject whose reason is not JSON is described (what and where), not recorded as [object Object]", async () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.o = cyclic;
    for (const [reason, text] of [
      [cyclic, "an object that is not JSON: a cycle (at /o)"],
      [10n, "a bigint that is not JSON: a bigint is not JSON (the value itself)"],
      [{ n: Number.NaN }, "an object that is not JSON: NaN is not a JSON number (at /n)"],
    ] as const) {
      const { result } = await runPlan(registryCounting([]), plan, {
        confirm: hookAnswering({ action: "reject", reason }, false),
      });
      expect(result.calls.find((call) => call.callId === "ask")).toMatchObject({
        status: "rejected",
        reason: text,
      });
    }
  });

  it("modified parameters that are not JSON fail PARAM_INVALID saying what is wrong and where", async () => {
    const cyclic: Record<string, unknown> = { v: 1 };
    cyclic.self = cyclic;
    for (const [params, message, pointer] of [
      [{ v: Number.NaN }, "modified parameters are not JSON: NaN is not a JSON number (at /v)", "/v"],
      [
        { v: { deep: 10n } },
        "modified parameters are not JSON: a bigint is not JSON (at /v/deep)",
        "/v/deep",
      ],
      [cyclic, "modified parameters are not JSON: a cycle (at /self)", "/self"],
    ] as const) {
      const { result } = await runPlan(registryCounting([]), plan, {
        confirm: hookAnswering({ action: "modify", params }, false),
      });
      expect(result.calls.find((call) => call.callId === "ask")).toMatchObject({
        status: "failed",
        error: { code: "PARAM_INVALID", message, data: { pointer } },
      });
    }
    for (const [params, got] of [
      [null, "null"],
      [[1], "an array"],
      ["v", "a string"],
    ] as const) {
      const { result } = await runPlan(registryCounting([]), plan, {
        confirm: hookAnswering({ action: "modify", params }, false),
      });
      expect(result.calls.find((call) => call.callId === "ask")?.error?.message).toBe(
        `modified parameters must be a JSON object, got ${got}`,
      );
    }
  });

  it("modified parameters that break the tool's schema say the hook's answer did, not the plan (review s34 M4)", async () => {
    const registry = createToolRegistry([
      { name: "charge", input: { type: "object", properties: { cents: { type: "number" } } }, run: () => 1 },
    ]);
    const { result, store } = await runPlan(
      registry,
      [{ _tool: "charge", _id: "ask", cents: 9000, _outputPath: "†state.c" }],
      { confirm: () => ({ action: "modify", params: { cents: "500" } }) },
    );
    const message =
      "the confirm hook's modified parameters break the input schema of charge: parameter /cents: must be number";
    expect(result.calls[0]).toMatchObject({ status: "failed", error: { code: "PARAM_INVALID", message } });
    expect(result.calls[0]?.modified).toBeUndefined();
    const [record] = await store.listCallRecords(asRunId("r"));
    expect(record?.error?.message).toBe(message);
  });

  it("a modify that runs is visible: `modified` on the report and call-end, the plan's parameters in the record", async () => {
    const ran: string[] = [];
    const { hub, events } = recordEvents();
    const { result, store } = await runPlan(registryCounting(ran), plan, {
      confirm: hookAnswering({ action: "modify", params: { v: 20 } }, false),
      events: hub,
    });
    expect(result.calls.map((call) => [call.callId, call.modified])).toEqual([
      ["ok", undefined],
      ["ask", true],
    ]);
    const ends = events.filter((event) => event.type === "call-end");
    expect(ends.map((event) => [event.callId, event.modified])).toEqual([
      ["ok", undefined],
      ["ask", true],
    ]);
    const starts = events.filter((event) => event.type === "call-start");
    expect(starts.map((event) => event.params)).toEqual([{ v: 1 }, { v: 20 }]);
    const records = await store.listCallRecords(asRunId("r"));
    expect(records.map((record) => [record.callId, record.params, record.plannedParams])).toEqual([
      ["ok", { v: 1 }, undefined],
      ["ask", { v: 20 }, { v: 2 }],
    ]);
    expect(result.state).toEqual({ ok: 1, ask: 20 });
  });

  it("the hook is told the run, the thread and the run's signal", async () => {
    const seen: { runId: string; threadId: string; aborted: boolean }[] = [];
    await runPlan(registryCounting([]), plan.slice(0, 1), {
      confirm: (request) => {
        seen.push({ runId: request.runId, threadId: request.threadId, aborted: request.signal.aborted });
        return { action: "approve" };
      },
    });
    expect(seen).toEqual([{ runId: "r", threadId: expect.any(String), aborted: false }]);
  });
});

describe("the hook sees what the plan asks of the call beyond its parameters", () => {
  const seenFor = async (tool: object, call: object) => {
    const seen: unknown[] = [];
    await runPlan(createToolRegistry([{ name: "send", run: () => "sent", ...tool }]), [call], {
      confirm: ({ rerun, attempts, timeoutMs }) => {
        seen.push({ rerun, attempts, timeoutMs });
        return { action: "approve" };
      },
    });
    return seen;
  };

  it("the plan's _rerun, the attempts the call may make, and its per-attempt timeout", async () => {
    const call = {
      _tool: "send",
      _rerun: true,
      _timeoutMs: 5000,
      _retry: { attempts: 4 },
      _outputPath: "†state.x",
    };
    expect(await seenFor({ retry: { attempts: 2 } }, call)).toEqual([
      { rerun: true, attempts: 4, timeoutMs: 5000 },
    ]);
  });

  it("without overrides: the tool's own policy and timeout, no rerun", async () => {
    const call = { _tool: "send", _outputPath: "†state.x" };
    expect(await seenFor({ retry: { attempts: 2 }, timeoutMs: 900 }, call)).toEqual([
      { rerun: false, attempts: 2, timeoutMs: 900 },
    ]);
    expect(await seenFor({}, call)).toEqual([{ rerun: false, attempts: 1, timeoutMs: undefined }]);
  });
});

describe("aborting a run while the confirm hook is pending (M4)", () => {
  it("the waiting call ends cancelled and the run settles; a late answer is ignored", async () => {
    const ran: string[] = [];
    const answers: ((decision: ConfirmDecision) => void)[] = [];
    const controller = new AbortController();
    const running = runPlan(registryCounting(ran), plan, {
      signal: controller.signal,
      confirm: (request) =>
        request.callId === "ask"
          ? new Promise<ConfirmDecision>((resolve) => answers.push(resolve))
          : { action: "approve" },
    });
    await flush();
    expect(answers).toHaveLength(1);
    controller.abort();
    const { result } = await running;
    expect(result.status).toBe("cancelled");
    expect(statusOf(result)).toEqual({ ok: ["succeeded", undefined], ask: ["cancelled", undefined] });
    answers[0]?.({ action: "approve" });
    await flush();
    expect(ran).toEqual(["ok"]);
  });

  it("failFast: another call's failure cancels a call whose confirmation never comes", async () => {
    const registry = createToolRegistry([
      {
        name: "val",
        run: (args: { v?: unknown }) => {
          if (args.v === "boom") throw new Error("boom");
          return args.v;
        },
      },
    ]);
    const { result } = await runPlan(
      registry,
      [
        { _tool: "val", _id: "ask", v: 2, _outputPath: "†state.ask" },
        { _tool: "val", _id: "bad", v: "boom", _outputPath: "†state.bad" },
      ],
      {
        failFast: true,
        confirm: (request) =>
          request.callId === "ask" ? new Promise<ConfirmDecision>(() => {}) : { action: "approve" },
      },
    );
    expect(result.status).toBe("failed");
    expect(statusOf(result)).toEqual({ ask: ["cancelled", undefined], bad: ["failed", "TOOL_ERROR"] });
  });
});
