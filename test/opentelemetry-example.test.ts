import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { branch, createEngine, createMemoryStore, defineTool, type RunEvent } from "obelisk";
import { createSqliteStore } from "obelisk/sqlite";
import { describe, expect, it } from "vitest";
import { inMemoryTracing, registerContextManager } from "../examples/opentelemetry/in-memory-tracing.js";
import { obeliskTracing, tracingObserver } from "../examples/opentelemetry/tracing-observer.js";
import { crashable } from "./support/crashable-store.js";

type Span = ReturnType<ReturnType<typeof inMemoryTracing>["spans"]>[number];

const T0 = Date.UTC(2026, 10, 26, 10);
const ERROR = 2; // SpanStatusCode.ERROR
const UNSET = 0;

/** Milliseconds since the epoch of an OpenTelemetry time ([seconds, nanoseconds]). */
const ms = ([seconds, nanos]: readonly [number, number]) => seconds * 1000 + nanos / 1e6;

/** An engine traced by the example observer, on a clock that moves 10 ms at every reading. */
function tracedEngine() {
  const tracing = inMemoryTracing();
  let time = T0;
  let failures = 0;
  let entered = () => {};
  const hanging = new Promise<void>((done) => {
    entered = done;
  });
  const tools = [
    defineTool({
      name: "flaky",
      retry: { attempts: 3, backoffMs: 0 },
      run: () => {
        if (++failures < 3) throw Object.assign(new Error("upstream down"), { code: "DOWN" });
        return "data";
      },
    }),
    defineTool({ name: "use", run: (args: object) => args }),
    defineTool({ name: "check", outcomes: ["ok", "failed"], run: () => branch("failed", { why: "no" }) }),
    defineTool({
      name: "boom",
      run: () => {
        throw Object.assign(new Error("it broke"), { code: "BOOM" });
      },
    }),
    defineTool({
      name: "hang",
      run: (_args: object, ctx) =>
        new Promise<never>((_done, fail) => {
          ctx.signal.addEventListener("abort", () => fail(ctx.signal.reason));
          entered();
        }),
    }),
  ];
  const engine = createEngine({ tools, now: () => (time += 10), onEvent: tracingObserver(tracing.tracer) });
  return { engine, spans: tracing.spans, hanging };
}

/** The span of `name` (exactly one). */
function only(spans: Span[], name: string): Span {
  const found = spans.filter((span) => span.name === name);
  expect(found.map((span) => span.name)).toEqual([name]);
  return found[0] as Span;
}

const callSpan = (spans: Span[], callId: string) => {
  const found = spans.find((span) => span.attributes["obelisk.call_id"] === callId);
  expect(found, callId).toBeDefined();
  return found as Span;
};

describe("examples/opentelemetry: run events as spans", () => {
  it("traces a run with a fan-out, a retry, a failure branch and a failed call", async () => {
    const { engine, spans } = tracedEngine();
    const events: RunEvent[] = [];
    const plan = {
      type: "plan",
      plan: [
        { _tool: "flaky", _id: "fetch", _outputPath: "†state.a && †state.b" },
        { _tool: "use", _id: "left", x: "†state.a", _outputPath: "†state.left" },
        { _tool: "use", _id: "right", x: "†state.b", _outputPath: "†state.right" },
        { _tool: "check", _id: "check", _outputPath: "†state.ok || †state.bad" },
        { _tool: "use", _id: "afterOk", x: "†state.ok", _outputPath: "†state.done" },
        { _tool: "boom", _id: "boom", _outputPath: "†state.boom" },
      ],
    };
    const result = await engine.run(plan, { threadId: "t1", onEvent: (event) => events.push(event) });
    await engine.close();
    expect(result.status).toBe("failed");

    const all = spans();
    expect(all.map((span) => span.name).sort()).toEqual([
      "obelisk.call boom",
      "obelisk.call check",
      "obelisk.call flaky",
      "obelisk.call use",
      "obelisk.call use",
      "obelisk.call use",
      "obelisk.run",
    ]);
    const run = only(all, "obelisk.run");
    expect(run.attributes).toEqual({
      "obelisk.run_id": result.runId,
      "obelisk.thread_id": "t1",
      "obelisk.plan_hash": result.planHash,
      "obelisk.calls": 6,
      "obelisk.queued_ms": expect.any(Number),
      "obelisk.status": "failed",
    });
    expect(run.status).toMatchObject({ code: ERROR });
    expect(run.parentSpanContext).toBeUndefined();
    for (const span of all.filter((each) => each !== run)) {
      expect(span.parentSpanContext?.spanId, span.name).toBe(run.spanContext().spanId);
      expect(span.spanContext().traceId).toBe(run.spanContext().traceId);
    }

    const fetch = callSpan(all, "fetch");
    expect(fetch.attributes).toEqual({
      "obelisk.call_id": "fetch",
      "obelisk.tool": "flaky",
      "obelisk.status": "succeeded",
      "obelisk.attempts": 3,
    });
    expect(fetch.status.code).toBe(UNSET);
    expect(fetch.events.map((event) => [event.name, event.attributes])).toEqual([
      [
        "obelisk.retry",
        {
          "obelisk.attempt": 2,
          "obelisk.delay_ms": 0,
          "obelisk.error.code": "DOWN",
          "obelisk.error.message": "upstream down",
        },
      ],
      ["obelisk.retry", expect.objectContaining({ "obelisk.attempt": 3 })],
      ["obelisk.state_write", { "obelisk.reference": "†state.a", "obelisk.method": "set" }],
      ["obelisk.state_write", { "obelisk.reference": "†state.b", "obelisk.method": "set" }],
    ]);
    expect(callSpan(all, "check").attributes).toMatchObject({
      "obelisk.status": "succeeded",
      "obelisk.branch": 1,
      "obelisk.outcome": "failed",
      "obelisk.branch_path": "†state.bad",
    });
    expect(callSpan(all, "afterOk").attributes).toMatchObject({
      "obelisk.status": "blocked",
      "obelisk.attempts": 0,
      "obelisk.reason": expect.stringContaining("alternative 1"),
    });
    const boom = callSpan(all, "boom");
    expect(boom.attributes).toMatchObject({ "obelisk.status": "failed", "obelisk.error.code": "BOOM" });
    expect(boom.status).toEqual({ code: ERROR, message: "it broke" });
    for (const id of ["left", "right"]) {
      expect(callSpan(all, id).attributes["obelisk.status"]).toBe("succeeded");
      // linked to the call whose output it read (call-ready's waitedFor)
      expect(callSpan(all, id).links).toEqual([
        { context: fetch.spanContext(), attributes: { "obelisk.link": "waited_for" } },
      ]);
    }
    // no links: it read nothing of the run (fetch, check), or it never became ready (afterOk, blocked)
    for (const id of ["fetch", "check", "afterOk"]) expect(callSpan(all, id).links, id).toEqual([]);

    // Times are the events' (the engine's clock), not the wall clock when the observer ran.
    const at = (type: RunEvent["type"], callId?: string) =>
      events.filter(
        (event) =>
          event.type === type && (callId === undefined || ("callId" in event && event.callId === callId)),
      );
    const runStart = at("run-start")[0] as Extract<RunEvent, { type: "run-start" }>;
    expect(ms(run.startTime)).toBe(runStart.at - (runStart.queuedMs ?? 0));
    expect(ms(run.endTime)).toBe(at("run-end")[0]?.at);
    for (const span of all.filter((each) => each !== run)) {
      const id = String(span.attributes["obelisk.call_id"]);
      const first = events.find((event) => "callId" in event && event.callId === id);
      expect(ms(span.startTime), id).toBe(first?.at);
      expect(ms(span.endTime), id).toBe(at("call-end", id)[0]?.at);
      expect(ms(span.startTime)).toBeLessThanOrEqual(ms(span.endTime));
      expect(ms(span.startTime)).toBeGreaterThanOrEqual(ms(run.startTime));
      expect(ms(span.endTime)).toBeLessThanOrEqual(ms(run.endTime));
    }
    expect(fetch.events.map((event) => ms(event.time))).toEqual(
      [...at("call-retry", "fetch"), ...at("state-write", "fetch")].map((event) => event.at),
    );
    expect(ms(run.startTime)).toBeGreaterThanOrEqual(T0);
    expect(ms(run.endTime)).toBeLessThan(T0 + 10_000);
  });

  it("ends every span of a cancelled run, the call in flight and the one that never started", async () => {
    const { engine, spans, hanging } = tracedEngine();
    const abort = new AbortController();
    const plan = {
      type: "plan",
      plan: [
        { _tool: "hang", _id: "wait", _outputPath: "†state.h" },
        { _tool: "use", _id: "next", x: "†state.h", _outputPath: "†state.n" },
      ],
    };
    const running = engine.run(plan, { signal: abort.signal });
    await hanging;
    abort.abort("user stopped it");
    const result = await running;
    await engine.close();
    expect(result.status).toBe("cancelled");

    const all = spans();
    expect(all.map((span) => span.name).sort()).toEqual([
      "obelisk.call hang",
      "obelisk.call use",
      "obelisk.run",
    ]);
    expect(all.every((span) => span.ended)).toBe(true);
    const run = only(all, "obelisk.run");
    expect(run.attributes["obelisk.status"]).toBe("cancelled");
    expect(run.status.code).toBe(UNSET);
    expect(callSpan(all, "wait").attributes).toMatchObject({
      "obelisk.status": "cancelled",
      "obelisk.attempts": 1,
    });
    expect(callSpan(all, "next").attributes).toMatchObject({
      "obelisk.status": "cancelled",
      "obelisk.attempts": 0,
    });
    // the run span ends last: its children end at or before it
    for (const span of all) expect(ms(span.endTime)).toBeLessThanOrEqual(ms(run.endTime));
  });

  it("links a resume to the run it continues, and ends the spans that run left open when its process died", async () => {
    const { tracer, spans } = inMemoryTracing();
    // one exporter fed by both "processes" (events forwarded to a collector): the first dies mid-call
    const onEvent = tracingObserver(tracer);
    let time = T0;
    const now = () => (time += 10);
    const use = defineTool({ name: "use", run: (args: object) => args });
    let entered = () => {};
    const hanging = new Promise<void>((done) => {
      entered = done;
    });
    const stuck = defineTool({
      name: "hang",
      run: () => {
        entered();
        return new Promise<never>(() => {});
      },
    });
    const store = createMemoryStore();
    const dying = crashable(store);
    const plan = {
      type: "plan",
      plan: [
        { _tool: "use", _id: "before", x: 1, _outputPath: "†state.x" },
        { _tool: "hang", _id: "wait", x: "†state.x", _outputPath: "†state.h" },
      ],
    };
    void createEngine({ tools: [use, stuck], store: dying.store, now, onEvent }).run(plan, { threadId: "t" });
    await hanging;
    dying.crash();
    // the process is gone: its run span and the span of the call in flight stay open (not finished)
    expect(spans().map((span) => span.name)).toEqual(["obelisk.call use"]);

    const finished = defineTool({ name: "hang", run: () => "done" });
    const engine = createEngine({ tools: [use, finished], store, now, onEvent });
    const [dead] = await engine.runs.list({ status: "interrupted" });
    const deadId = dead?.runId as string;
    const events: RunEvent[] = [];
    const result = await engine.resume(deadId, { onEvent: (event) => events.push(event) });
    expect(result.status).toBe("succeeded");
    const { run } = await engine.runs.show(deadId);
    await engine.close();

    const all = spans();
    // every span finished: the dead run's two open ones too
    expect(all.map((span) => span.name).sort()).toEqual([
      "obelisk.call hang",
      "obelisk.call hang",
      "obelisk.call use",
      "obelisk.call use",
      "obelisk.run",
      "obelisk.run",
    ]);
    const runs = all.filter((span) => span.name === "obelisk.run");
    const deadSpan = runs.find((span) => span.attributes["obelisk.run_id"] === deadId) as Span;
    const resumeSpan = runs.find((span) => span.attributes["obelisk.run_id"] === result.runId) as Span;
    expect(runs).toEqual([deadSpan, resumeSpan]);
    // the resume names the run it continues, and its span links to that run's
    expect(events[0]).toMatchObject({ type: "run-start", resumeOf: deadId });
    expect(resumeSpan.attributes["obelisk.resume_of"]).toBe(deadId);
    expect(resumeSpan.links).toEqual([
      { context: deadSpan.spanContext(), attributes: { "obelisk.link": "resumes" } },
    ]);
    // run-superseded, before the resume's run-end, ended the dead run's spans at its record's end
    const superseded = events.find((event) => event.type === "run-superseded");
    expect(superseded).toMatchObject({ runId: result.runId, supersededRunId: deadId, resumed: true });
    expect(events.map((event) => event.type).slice(-2)).toEqual(["run-superseded", "run-end"]);
    expect(run.status).toBe("cancelled");
    expect(ms(deadSpan.endTime)).toBe(superseded?.at);
    expect(ms(deadSpan.endTime)).toBe(Date.parse(run.endedAt as string));
    expect(deadSpan.attributes).toMatchObject({
      "obelisk.status": "cancelled",
      "obelisk.superseded_by": result.runId,
    });
    expect(deadSpan.status.code).toBe(UNSET);
    const deadCall = all.find(
      (span) =>
        span.attributes["obelisk.call_id"] === "wait" &&
        span.parentSpanContext?.spanId === deadSpan.spanContext().spanId,
    );
    expect(ms(deadCall?.endTime ?? [0, 0])).toBe(superseded?.at);
    // the call the dead run had finished is satisfied by its record
    const satisfied = all.find(
      (span) =>
        span.attributes["obelisk.call_id"] === "before" &&
        span.parentSpanContext?.spanId === resumeSpan.spanContext().spanId,
    );
    expect(satisfied?.attributes).toMatchObject({
      "obelisk.status": "satisfied",
      "obelisk.satisfied_by": deadId,
    });
    expect(resumeSpan.events.map((event) => [event.name, event.attributes])).toEqual([
      [
        "obelisk.run_superseded",
        {
          "obelisk.superseded_run_id": deadId,
          "obelisk.resumed": true,
          ...(run.reason === undefined ? {} : { "obelisk.reason": run.reason }),
        },
      ],
    ]);
  });

  it("links a resume to a run engine.close() stopped, whose span had ended, on a store file", async () => {
    const dir = mkdtempSync(join(tmpdir(), "obelisk-otel-"));
    try {
      const file = join(dir, "state.db");
      const { tracer, spans } = inMemoryTracing();
      const onEvent = tracingObserver(tracer);
      let entered = () => {};
      const hanging = new Promise<void>((done) => {
        entered = done;
      });
      const waits = defineTool({
        name: "hang",
        run: (_args: object, ctx) =>
          new Promise<never>((_done, fail) => {
            ctx.signal.addEventListener("abort", () => fail(ctx.signal.reason));
            entered();
          }),
      });
      const plan = [{ _tool: "hang", _id: "wait", _outputPath: "†state.h" }];
      const closing = createEngine({ tools: [waits], store: createSqliteStore(file), onEvent });
      const stopped = closing.run(plan, { threadId: "t" });
      await hanging;
      await closing.close();
      const { runId } = await stopped;
      const closedSpan = only(spans(), "obelisk.run");

      const finished = defineTool({ name: "hang", run: () => "done" });
      const engine = createEngine({ tools: [finished], store: createSqliteStore(file), onEvent });
      const result = await engine.resume(runId);
      await engine.close();
      const resumeSpan = spans().find((span) => span.attributes["obelisk.run_id"] === result.runId);
      expect(resumeSpan?.attributes["obelisk.resume_of"]).toBe(runId);
      expect(resumeSpan?.links).toEqual([
        { context: closedSpan.spanContext(), attributes: { "obelisk.link": "resumes" } },
      ]);
      expect(resumeSpan?.events.map((event) => event.attributes?.["obelisk.superseded_run_id"])).toEqual([
        runId,
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("with obeliskTracing's aroundTool, the spans a tool makes itself are children of its call's span", async () => {
    registerContextManager();
    const { tracer, spans } = inMemoryTracing();
    const engine = createEngine({
      tools: [
        defineTool({
          name: "fetchPage",
          run: async () => {
            await Promise.resolve();
            // what an instrumented HTTP client does inside the tool
            tracer.startSpan("GET /page").end();
            return "page";
          },
        }),
      ],
      ...obeliskTracing(tracer),
    });
    const result = await engine.run([{ _tool: "fetchPage", _id: "p", _outputPath: "†state.page" }], {
      threadId: "t",
    });
    expect(result.status).toBe("succeeded");
    const all = spans();
    const call = only(all, "obelisk.call fetchPage");
    expect(only(all, "GET /page").parentSpanContext?.spanId).toBe(call.spanContext().spanId);
    expect(call.parentSpanContext?.spanId).toBe(only(all, "obelisk.run").spanContext().spanId);
    await engine.close();
  });

  it("never throws into the engine, whatever the tracer or the event", () => {
    const broken = {
      startSpan: () => {
        throw new Error("exporter misconfigured");
      },
      startActiveSpan: () => {
        throw new Error("exporter misconfigured");
      },
    };
    const observe = tracingObserver(broken);
    const start = {
      type: "run-start",
      runId: "r",
      at: T0,
      threadId: "t",
      planHash: "sha256:",
      calls: 0,
    } as const;
    expect(() => observe(start)).not.toThrow();
    expect(() => observe(null as unknown as RunEvent)).not.toThrow();
    const { tracer, spans } = inMemoryTracing();
    const healthy = tracingObserver(tracer);
    expect(() => healthy({ type: "call-end", runId: "unknown" } as unknown as RunEvent)).not.toThrow();
    expect(spans()).toEqual([]);
  });
});
