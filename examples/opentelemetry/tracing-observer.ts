import {
  type Attributes,
  type Context,
  context,
  diag,
  type Link,
  type Span,
  type SpanContext,
  SpanStatusCode,
  type Tracer,
  trace,
} from "@opentelemetry/api";
import type { AroundTool, RunEvent } from "obelisk";

/** The spans of one run still open: the run's, and its calls' by call id. */
interface OpenRun {
  readonly span: Span;
  readonly context: Context;
  readonly calls: Map<string, Span>;
  /** Every call span's context, ended or not, until the run ends: what a later call's links point to. */
  readonly contexts: Map<string, SpanContext>;
}

/** What one observer keeps: the open runs, and the span contexts of the runs that ended. */
interface Traces {
  readonly runs: Map<string, OpenRun>;
  /** Span contexts of ended runs by run id, oldest first: what a later resume links to. */
  readonly ended: Map<string, SpanContext>;
}

type EventOf<T extends RunEvent["type"]> = Extract<RunEvent, { type: T }>;
type CallEvent = EventOf<"call-ready" | "call-start" | "call-retry" | "call-end" | "state-write">;

/**
 * An `onEvent` observer that turns Obelisk's run events into OpenTelemetry spans: one `obelisk.run` span
 * per run and one `obelisk.call <tool>` child per call, timed by the events' `at` (the engine's clock).
 * Give it to `createEngine({ onEvent })` for every run, or to one run's `onEvent`. It never throws: an
 * event it cannot trace is reported through OpenTelemetry's `diag` logger and dropped.
 */
export function tracingObserver(tracer: Tracer): (event: RunEvent) => void {
  return obeliskTracing(tracer).onEvent;
}

/**
 * The observer of {@link tracingObserver} and, for `createEngine({ aroundTool })`, a wrapper that runs each
 * tool attempt with its call's span active: the tool's own spans (an instrumented HTTP client's) nest
 * under `obelisk.call <tool>`. `createEngine({ ...obeliskTracing(tracer), tools })`.
 */
export function obeliskTracing(tracer: Tracer): {
  onEvent: (event: RunEvent) => void;
  aroundTool: AroundTool;
} {
  const runs = new Map<string, OpenRun>();
  const ended = new Map<string, SpanContext>();
  const aroundTool: AroundTool = (attempt, invoke) => {
    const span = runs.get(attempt.runId)?.calls.get(attempt.callId);
    return span === undefined ? invoke() : context.with(trace.setSpan(context.active(), span), invoke);
  };
  return { onEvent: observe(tracer, { runs, ended }), aroundTool };
}

function observe(tracer: Tracer, traces: Traces): (event: RunEvent) => void {
  return (event) => {
    try {
      record(tracer, traces, event);
    } catch (error) {
      diag.error(`obelisk tracing: ${event?.type} event not traced`, error);
    }
  };
}

function record(tracer: Tracer, traces: Traces, event: RunEvent): void {
  const { runs } = traces;
  const at = new Date(event.at);
  if (event.type === "run-start") {
    if (runs.has(event.runId)) return;
    // The run span starts at the request (before the lock wait and the compile), as a trace of a
    // service's request would; `queuedMs` is absent when the host gave no request time.
    const start = new Date(event.at - (event.queuedMs ?? 0));
    const parent = context.active();
    // A resume links to the span of the run it continues, when this observer saw that run start (its span
    // still open: events forwarded from a process that died; or ended, in this process, before close()).
    const resumed = event.resumeOf === undefined ? undefined : known(traces, event.resumeOf);
    const span = tracer.startSpan(
      "obelisk.run",
      {
        startTime: start,
        attributes: {
          "obelisk.run_id": event.runId,
          "obelisk.thread_id": event.threadId,
          "obelisk.plan_hash": event.planHash,
          "obelisk.calls": event.calls,
          ...(event.queuedMs === undefined ? {} : { "obelisk.queued_ms": event.queuedMs }),
          ...(event.resumeOf === undefined ? {} : { "obelisk.resume_of": event.resumeOf }),
        },
        ...(resumed === undefined
          ? {}
          : { links: [{ context: resumed, attributes: { "obelisk.link": "resumes" } }] }),
      },
      parent,
    );
    runs.set(event.runId, {
      span,
      context: trace.setSpan(parent, span),
      calls: new Map(),
      contexts: new Map(),
    });
    return;
  }
  const run = runs.get(event.runId);
  if (run === undefined) return; // a run that started before this observer was attached
  switch (event.type) {
    case "observer-error":
      run.span.addEvent("obelisk.observer_error", errorAttributes(event.error, event.eventType), at);
      return;
    case "run-superseded":
      endSuperseded(traces, run, event);
      return;
    case "run-end":
      endRun(run, event);
      runs.delete(event.runId);
      remember(traces, event.runId, run.span.spanContext());
      return;
    default:
      traceCall(tracer, run, event, at);
  }
}

function traceCall(tracer: Tracer, run: OpenRun, event: CallEvent, at: Date): void {
  let span = run.calls.get(event.callId);
  if (span === undefined) {
    // A call's first event opens its span: `call-ready`, or `call-end` alone for a call that never
    // became ready (blocked, waiting, satisfied, cancelled before it started). `call-ready` names the
    // calls it waited for: their spans are linked (given at the start, so samplers see them).
    span = tracer.startSpan(
      `obelisk.call ${event.tool}`,
      {
        startTime: at,
        attributes: { "obelisk.call_id": event.callId, "obelisk.tool": event.tool },
        ...(event.type === "call-ready" ? { links: linksTo(run, event.waitedFor) } : {}),
      },
      run.context,
    );
    run.calls.set(event.callId, span);
    run.contexts.set(event.callId, span.spanContext());
  }
  switch (event.type) {
    case "call-start":
      span.setAttribute("obelisk.attempts", event.attempt);
      return;
    case "call-retry":
      span.addEvent(
        "obelisk.retry",
        {
          "obelisk.attempt": event.attempt,
          "obelisk.delay_ms": event.delayMs,
          ...errorAttributes(event.error),
        },
        at,
      );
      return;
    case "state-write":
      span.addEvent(
        "obelisk.state_write",
        { "obelisk.reference": event.reference, "obelisk.method": event.method },
        at,
      );
      return;
    case "call-end":
      span.setAttributes({
        "obelisk.status": event.status,
        "obelisk.attempts": event.attempts,
        ...(event.branch === undefined ? {} : { "obelisk.branch": event.branch }),
        ...(event.outcome === undefined ? {} : { "obelisk.outcome": event.outcome }),
        ...(event.branchPath === undefined ? {} : { "obelisk.branch_path": event.branchPath }),
        ...(event.reason === undefined ? {} : { "obelisk.reason": event.reason }),
        ...(event.error === undefined ? {} : errorAttributes(event.error)),
        ...(event.satisfiedBy === undefined ? {} : { "obelisk.satisfied_by": event.satisfiedBy }),
      });
      if (event.status === "failed")
        span.setStatus({ code: SpanStatusCode.ERROR, message: event.error?.message ?? "failed" });
      span.end(at);
      run.calls.delete(event.callId);
      return;
    case "call-ready":
      return;
  }
}

/** Links to the spans of the calls a call waited for (`obelisk.link: waited_for`). */
function linksTo(run: OpenRun, callIds: readonly string[]): Link[] {
  const links: Link[] = [];
  for (const callId of callIds) {
    const context = run.contexts.get(callId);
    if (context !== undefined) links.push({ context, attributes: { "obelisk.link": "waited_for" } });
  }
  return links;
}

function endRun(run: OpenRun, event: EventOf<"run-end">): void {
  const at = new Date(event.at);
  // run-end is last and every call has had its call-end; this only guards against a future event kind.
  for (const span of run.calls.values()) span.end(at);
  run.span.setAttribute("obelisk.status", event.status);
  if (event.error !== undefined) run.span.setAttribute("obelisk.error.code", event.error.code);
  if (event.status === "failed")
    run.span.setStatus({ code: SpanStatusCode.ERROR, message: event.error?.message ?? "a call failed" });
  run.span.end(at);
}

/**
 * A run that ended another (a resume, or the same plan run again): an `obelisk.run_superseded` event on its
 * span, and the ended run's span, still open when its process died before `run-end`, ends now `cancelled`.
 */
function endSuperseded(traces: Traces, run: OpenRun, event: EventOf<"run-superseded">): void {
  const at = new Date(event.at);
  const reason = event.reason === undefined ? {} : { "obelisk.reason": event.reason };
  run.span.addEvent(
    "obelisk.run_superseded",
    { "obelisk.superseded_run_id": event.supersededRunId, "obelisk.resumed": event.resumed, ...reason },
    at,
  );
  const ended = traces.runs.get(event.supersededRunId);
  if (ended === undefined) return;
  for (const span of ended.calls.values()) span.end(at);
  ended.span.setAttributes({
    "obelisk.status": event.status,
    "obelisk.superseded_by": event.runId,
    ...reason,
  });
  ended.span.end(at);
  traces.runs.delete(event.supersededRunId);
  remember(traces, event.supersededRunId, ended.span.spanContext());
}

/** Most ended runs whose span context is kept for a later resume's link. */
const REMEMBERED = 1000;

/** Keeps an ended run's span context, for the link of a resume of it (the oldest goes past REMEMBERED). */
function remember(traces: Traces, runId: string, spanContext: SpanContext): void {
  traces.ended.set(runId, spanContext);
  if (traces.ended.size > REMEMBERED) traces.ended.delete(traces.ended.keys().next().value as string);
}

/** The span context of a run this observer saw start: open or ended. */
function known(traces: Traces, runId: string): SpanContext | undefined {
  return traces.runs.get(runId)?.span.spanContext() ?? traces.ended.get(runId);
}

/** `obelisk.error.*` attributes of an error (code only when it has one). */
function errorAttributes(
  error: { readonly code?: string; readonly message: string },
  eventType?: string,
): Attributes {
  return {
    ...(error.code === undefined ? {} : { "obelisk.error.code": error.code }),
    "obelisk.error.message": error.message,
    ...(eventType === undefined ? {} : { "obelisk.event_type": eventType }),
  };
}
