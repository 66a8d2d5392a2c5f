import type { RegisteredTool, RetryPolicy } from "@obelisk/compiler";
import { type JsonObject, keepShapes } from "@obelisk/core";
import type { Awaitable, RecordedError } from "@obelisk/state";
import type { AroundTool } from "./around-tool.js";
import type { InvokeOutcome, InvokeRequest, SettlingRequest } from "./invoke-tool.js";
import { DEFAULT_RETRY } from "./retry-delay.js";
import type { CallRun } from "./runner-types.js";
import type { Timers } from "./timers.js";

/** What an invocation needs from its runner (shared by every call of the run). */
export interface InvocationHost {
  readonly runId: string;
  readonly threadId: string;
  /** The run's signal (cancellation and failFast). */
  readonly signal: AbortSignal;
  /** True once the run is aborted (its signal is aborted then too). */
  readonly aborted: boolean;
  readonly timers: Timers;
  /** The run's clock (ms). */
  readonly now: () => number;
  readonly random: () => number;
  /** The host's wrapper of each tool attempt, if any. */
  readonly aroundTool: AroundTool | undefined;
  /** An attempt starts (bookkeeping and the `call-start` event). */
  attemptStarted(run: CallRun, attempt: number): void;
  /** A retry is scheduled (the `call-retry` event). */
  retrying(run: CallRun, attempt: number, delayMs: number, error: RecordedError): void;
  /** How the call's attempts ended (`early`: judged for failFast before its slot is given back). */
  invoked(
    index: number,
    run: CallRun,
    tool: RegisteredTool,
    outcome: InvokeOutcome,
    early: boolean,
  ): Awaitable<void>;
}

/**
 * One call's invoke request: a class (methods and getters on the prototype) rather than an object literal
 * with closures, so the hot path allocates one small object per call; what the runner or the call already
 * holds is read through getters instead of being copied into each request. It settles the call itself
 * ({@link settle}), so the outcome needs no closure per call either.
 */
export class CallInvocation implements SettlingRequest {
  constructor(
    private readonly host: InvocationHost,
    private readonly callRun: CallRun,
    private readonly tool: RegisteredTool,
    readonly policy: RetryPolicy,
    private readonly index: number,
    private readonly early: boolean,
  ) {}

  /** Hands how the attempts ended to the runner. */
  settle(outcome: InvokeOutcome): Awaitable<void> {
    return this.host.invoked(this.index, this.callRun, this.tool, outcome, this.early);
  }

  /** The implementation. */
  get run(): InvokeRequest["run"] {
    return this.tool.run as InvokeRequest["run"];
  }

  /** Resolved, frozen arguments. */
  get args(): JsonObject {
    return this.callRun.params ?? {};
  }

  get callId(): string {
    return this.callRun.call.id;
  }

  get runId(): string {
    return this.host.runId;
  }

  get threadId(): string {
    return this.host.threadId;
  }

  get toolName(): string {
    return this.tool.name;
  }

  get around(): AroundTool | undefined {
    return this.host.aroundTool;
  }

  /** The call's `_timeoutMs`, else the tool's. */
  get timeoutMs(): number | undefined {
    return this.callRun.call.timeoutMs ?? this.tool.timeoutMs;
  }

  get signal(): AbortSignal {
    return this.host.signal;
  }

  get aborted(): boolean {
    return this.host.aborted;
  }

  get timers(): Timers {
    return this.host.timers;
  }

  get now(): () => number {
    return this.host.now;
  }

  get random(): () => number {
    return this.host.random;
  }

  /** Called before each attempt (1-based). */
  onAttempt(attempt: number): void {
    this.host.attemptStarted(this.callRun, attempt);
  }

  /** Called before waiting for a retry. */
  onRetry(attempt: number, delayMs: number, error: RecordedError): void {
    this.host.retrying(this.callRun, attempt, delayMs, error);
  }
}

// Every invoke request lives for one call: one kept instance keeps the class's hidden class (see
// keepShapes). Its fields only need to be objects: the stand-ins are never read.
keepShapes(
  new CallInvocation({} as InvocationHost, {} as CallRun, {} as RegisteredTool, DEFAULT_RETRY, 0, false),
  new AbortController(),
);
