import type { DiagnosticCode, JsonValue, ObeliskCode, Severity } from "@obelisk/core";
import type { CallErrorCode } from "./engine-types.js";

/*
 * What the agent tools answer, typed for hosts that read the answers (the model gets them as JSON). Each is
 * a type literal, not an interface, so that it stays assignable to `JsonValue`: `AgentTool<Name, Answer>`
 * is an `AgentTool` (whose `execute` resolves to a `JsonValue`), and a host holding `AgentTool[]` keeps
 * compiling. Every tool's answer is its own answer or an {@link AgentToolFailure}: the one with `error` at
 * the top level is the failure, so `if ("error" in answer)` narrows to it and `else` to the tool's answer.
 */

/** An Obelisk error as the tools answer it instead of throwing (message and hint cut to 1,000 characters). */
export type AgentToolError = {
  /** Stable code: `PLAN_INVALID`, `PLAN_NOT_APPROVED`, `USAGE`, `REF_SYNTAX`, `THREAD_BUSY`, … */
  readonly code: ObeliskCode;
  /** What went wrong, for the model. */
  readonly message: string;
  /** The error's data (`PLAN_INVALID`: `{ ok, planHash, diagnostics, omitted?, note? }`), or `null`. */
  readonly data: JsonValue;
  /** What to do about it, when there is a hint. */
  readonly hint?: string;
};

/** The answer of any of the tools when Obelisk refused the call: arguments, plan, approval, thread busy, … */
export type AgentToolFailure = { readonly ok: false; readonly error: AgentToolError };

/** A diagnostic as the tools answer it: message and hint cut to 300 characters, names to 200. */
export type AgentDiagnostic = {
  readonly code: DiagnosticCode;
  readonly severity: Severity;
  readonly message: string;
  readonly pointer: string;
  readonly callId?: string;
  readonly hint?: string;
  readonly related?: readonly string[];
  /** For an input that breaks a schema: where in the input (a JSON Pointer), as `EngineDiagnostic` has it. */
  readonly inputPointer?: string;
};

/** `validate_plan`'s answer: the plan's verdict, its hash, and its diagnostics within a budget. */
export type ValidatePlanAnswer = {
  /** No error diagnostics. */
  readonly ok: boolean;
  /** The hash a run of this plan will have. */
  readonly planHash: string;
  /** The diagnostics in document order, as many as fit 12,000 characters of JSON. */
  readonly diagnostics: readonly AgentDiagnostic[];
  /** The diagnostics left out, counted by code (only when some were). */
  readonly omitted?: { readonly [code: string]: number };
  /** Says that some were left out and what to do. */
  readonly note?: string;
};

/** A warning of the plan `run_plan` ran (the same `validate_plan` gives), cut like a diagnostic. */
export type AgentWarning = {
  readonly code: DiagnosticCode;
  readonly pointer: string;
  readonly message: string;
  readonly callId?: string;
  readonly hint?: string;
};

/** A call's error in `run_plan`'s answer (the message cut to 300 characters). */
export type AgentCallError = { readonly code: CallErrorCode; readonly message: string };

/** A call's outcome in `run_plan`'s answer: `RunResult`'s `CallOutcome`, as JSON (a union on `status`). */
export type AgentCallOutcome = {
  readonly tool: string;
  readonly attempts: number;
  readonly durationMs: number;
  /** Where the call wrote, within 1,000 characters of JSON (a long fan-out's first targets). */
  readonly wrote: readonly string[];
  /** Targets left out of `wrote` (only when some were). */
  readonly wroteOmitted?: number;
  /** True when the host's confirm hook changed the call's parameters before it ran. */
  readonly modified?: true;
} & (
  | {
      readonly status: "succeeded";
      readonly branch?: number;
      readonly error?: AgentCallError;
    }
  | {
      readonly status: "satisfied";
      readonly branch?: number;
      readonly error?: AgentCallError;
      /** Where the value of its earlier completion is: the thread holds it there (it did not run again). */
      readonly holds: readonly string[];
      /** Targets left out of `holds` (only when some were; 1,000 characters of JSON at most). */
      readonly holdsOmitted?: number;
    }
  | { readonly status: "failed"; readonly error: AgentCallError; readonly reason?: string }
  | {
      readonly status: "blocked" | "waiting" | "rejected" | "deferred" | "cancelled";
      readonly reason: string;
    }
);

/** `run_plan`'s answer: the run result without its state, bounded (16,000 characters of JSON). */
export type RunPlanAnswer = {
  readonly runId: string;
  readonly threadId: string;
  readonly planHash: string;
  readonly status: "succeeded" | "failed" | "cancelled";
  /** The plan's warnings (only when it has some), as many as fit 3,000 characters. */
  readonly warnings?: readonly AgentWarning[];
  /** Warnings left out, counted by code (only when some were): `validate_plan` lists them all. */
  readonly warningsOmitted?: { readonly [code: string]: number };
  /** Outcome per call id (the calls that did not succeed first when not all fit). */
  readonly calls: { readonly [callId: string]: AgentCallOutcome };
  /** The failed calls (their messages are in `calls`). */
  readonly errors: readonly { readonly callId: string; readonly code: CallErrorCode }[];
  /** Calls and error entries left out to stay within the budget (only when some were), with `note`. */
  readonly omitted?: { readonly calls: number; readonly errors: number };
  /**
   * What was left out and how to read it; when calls were `waiting`, that they did not run and wait for an
   * approval a person gives; when calls were `satisfied`, that they did not run again.
   */
  readonly note?: string;
  readonly durationMs: number;
  /** Variables summary of what the run wrote (markdown, within 2,000 characters). */
  readonly summary: string;
};

/** `list_variables`' answer: the variables summary (markdown) within its budget. */
export type ListVariablesAnswer = {
  readonly text: string;
  /** Variables left out to stay within the budget. */
  readonly omitted: number;
  /** References asked for in `refs` that are not stored (within 2,000 characters, each cut to 200). */
  readonly notFound: readonly string[];
  /** How many not-stored references `notFound` leaves out to stay within its size. */
  readonly notFoundOmitted?: number;
};

/** An item of a `get_variable` page too large to show: where to read it, and its start. */
export type AgentTooLargeItem =
  | { readonly reference: string; readonly preview: string }
  | { readonly key: string; readonly index: number; readonly preview: string };

/** What a `get_variable` page has besides its items, entries or text. */
type PageFacts = {
  readonly found: true;
  /** First item, key or character of the page. */
  readonly offset: number;
  /** How many the page holds. */
  readonly limit: number;
  /** How many the value has. */
  readonly total: number;
  /** The `offset` of the next page (when there is one). */
  readonly next?: number;
  /** How to read on, and why the page ends where it does. */
  readonly note?: string;
  /** Items or values too large for the page (their reference and a preview). */
  readonly tooLarge?: readonly AgentTooLargeItem[];
};

/**
 * `get_variable`'s answer: not found (with a hint naming the nearest stored names, when some are near), the
 * whole value, or one page of an array (`items`), object (`entries`) or string (`text`).
 */
export type GetVariableAnswer =
  | { readonly found: false; readonly hint: string }
  | {
      readonly found: true;
      readonly value: JsonValue;
      /** Set when the value holds reference syntax (`†`): how to copy such text into a plan. */
      readonly note?: string;
    }
  | (PageFacts & { readonly type: "array"; readonly items: readonly JsonValue[] })
  | (PageFacts & { readonly type: "object"; readonly entries: { readonly [key: string]: JsonValue } })
  | (PageFacts & { readonly type: "string"; readonly text: string });
