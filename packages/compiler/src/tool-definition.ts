import type { CallId, JsonObject, RunId, ThreadId } from "@obelisk/core";
import type { z } from "zod";

const BRANCH_MARKER = Symbol.for("obelisk.branch");

/** A schema given for a tool: a zod v4 schema or a JSON Schema object. */
export type SchemaInput = z.ZodType | JsonObject;

/** Retry policy for thrown errors (SPEC §7). */
export interface RetryPolicy {
  /** Total attempts, including the first. Default 1 (no retry). */
  readonly attempts: number;
  /** Delay before the first retry, in ms. Default 100. */
  readonly backoffMs: number;
  /** Multiplier applied to the delay after each retry. Default 2. */
  readonly factor: number;
  /**
   * Upper bound of any delay, in ms. Default 30,000. A delay `shouldRetry` asks for above it is not waited:
   * the call is not retried (decision record 0066).
   */
  readonly maxDelayMs: number;
  /** Randomize each delay in [0, delay] ("full jitter"). Default false. */
  readonly jitter: boolean;
  /**
   * Whether a thrown error (or a timeout, as an `Error` with `code: "TIMEOUT"`) is worth another attempt;
   * `attempt` is the one that failed (1-based). Default: every error is. `true` (or a promise of `true`)
   * retries after the policy's backoff; `{ retry: true, delayMs }` after `delayMs` (see {@link RetryAnswer});
   * anything else does not, nor does one that throws or rejects, nor a promise still pending when the run is
   * aborted (`signal`, the run's, says when: pass it on to a network check). A tool's policy only (a plan's
   * `_retry` is JSON); it applies whatever number of attempts the plan sets.
   */
  readonly shouldRetry?:
    | ((error: unknown, attempt: number, signal: AbortSignal) => RetryAnswer | Promise<RetryAnswer>)
    | undefined;
}

/**
 * What a retry policy's `shouldRetry` answers: `true` retries after the policy's backoff, `false` does not;
 * `{ retry: true, delayMs }` retries after `delayMs` ms, as it is (no jitter) — a server's `Retry-After` —
 * or does not retry when `delayMs` is above the policy's `maxDelayMs` (never sooner than asked). `delayMs`
 * left out or `undefined` is the policy's backoff; one that is not a finite number, 0 or more, fails the
 * call `USAGE`. `{ retry: false }` (or any `retry` but `true`) does not retry.
 */
export type RetryAnswer = boolean | { readonly retry: boolean; readonly delayMs?: number | undefined };

/**
 * A tool's `retry` as given: any fields of {@link RetryPolicy}, each left out or `undefined` for its default.
 */
export type RetryPolicyInput = { readonly [Field in keyof RetryPolicy]?: RetryPolicy[Field] | undefined };

/** A tool's choice of `||` alternative with the value to write there. Return it from `run`. */
export interface BranchResult {
  /** 0-based alternative index, or one of the tool's declared `outcomes`. */
  readonly alternative: number | string;
  /** The value written to that alternative. */
  readonly value: unknown;
  /** Marker checked by `isBranchResult`. */
  readonly [BRANCH_MARKER]: true;
}

/** Picks the `||` alternative a call's value is written to: `return branch("failed", { reason })`. */
export function branch(alternative: number | string, value: unknown): BranchResult {
  return { alternative, value, [BRANCH_MARKER]: true };
}

/** True when a tool's return value is a `branch()` result. */
export function isBranchResult(value: unknown): value is BranchResult {
  return (
    typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[BRANCH_MARKER] === true
  );
}

/** What a tool implementation receives besides its arguments. */
export interface ToolContext {
  /** Aborted on timeout, on run cancellation and on failFast. */
  readonly signal: AbortSignal;
  /** The call being executed. */
  readonly callId: CallId;
  /** The current run. */
  readonly runId: RunId;
  /** The thread the run belongs to. */
  readonly threadId: ThreadId;
  /** 1-based attempt number. */
  readonly attempt: number;
  /** `<threadId>:<callId>`: stable across retries and resumes (at-least-once delivery). */
  readonly idempotencyKey: string;
  /**
   * `<threadId>:<callId>:<16 hex digits of the tool and the arguments it gets>`: stable across retries and
   * resumes like `idempotencyKey`, but different when a later run reuses the call id for other arguments —
   * the key to hand a provider that deduplicates (payments, emails). The output path is not part of it.
   */
  readonly contentKey: string;
  /**
   * Picks the `||` alternative the value is written to, as the exported `branch()`: `return ctx.branch(1, value)`,
   * or call it and return nothing (returning another value beside it fails the call `BRANCH_INVALID`).
   */
  branch(alternative: number | string, value: unknown): BranchResult;
}

/**
 * Infers a tool's argument type from its input schema: the zod schema's output type, else any object.
 * Not distributive (`[S]`): for the default `SchemaInput` (a zod schema or a JSON Schema) it is any object,
 * where a distributive form gave `z.output<z.ZodType> | Record<…>`, that is `unknown`.
 */
export type InferInput<S> = [S] extends [z.ZodType] ? z.output<S> : Record<string, unknown>;
/** Infers a tool's result type from its output schema. */
export type InferOutput<S> = S extends z.ZodType ? z.input<S> : unknown;

/** A tool as users define it (SPEC §9). A plain object of this shape with JSON Schemas is accepted too. */
export interface ToolDefinition<In extends SchemaInput = SchemaInput, Out extends SchemaInput = SchemaInput> {
  /** Unique tool name (`[A-Za-z_][A-Za-z0-9_-]*`). */
  readonly name: string;
  /** What the tool does (shown to LLMs in the plan schema). */
  readonly description?: string | undefined;
  /** Input schema: parameters by name. Default: any object. */
  readonly input?: In | undefined;
  /** Output schema, when known. */
  readonly output?: Out | undefined;
  /** JSON Schema for the `_outputPath` string (`{ const }` prescribed or `{ pattern }` dynamic). */
  readonly outputPath?: JsonObject | undefined;
  /** Names of the `||` alternatives, in order. */
  readonly outcomes?: readonly string[] | undefined;
  /** At most this many calls of this tool run at once. Default unbounded. */
  readonly concurrency?: number | undefined;
  /** Per-attempt timeout in ms. Default none. */
  readonly timeoutMs?: number | undefined;
  /** Retry policy for thrown errors. */
  readonly retry?: RetryPolicyInput | undefined;
  /** Never treat a call of this tool as satisfied. Default false. */
  readonly fresh?: boolean | undefined;
  /**
   * A completed call of this tool satisfies a later identical call (same parameters, output path and
   * method) only until it is this many ms old (since it ended): live data (search results, prices) is
   * fetched again after that. `0` never reuses (as `fresh`). Default `Infinity`: always reused.
   */
  readonly reuseForMs?: number | undefined;
  /** Relative cost hint used for critical-path priority. Default 1. */
  readonly cost?: number | undefined;
  /**
   * Parameters that carry a person's approval: in a plan each must be a whole reference under
   * `†state.approvals.` (the call waits until someone writes it), never a literal — an approval is not
   * the plan's to give. Required in every call. Default none.
   */
  readonly approvalParams?: readonly string[] | undefined;
  /**
   * `false` for a tool that calling twice is not calling once (a payment, an email): a plan may not ask
   * for a rerun (`_rerun: true`) or for more attempts than the tool's own `retry` gives
   * (`_retry.attempts`). Default `true`: the plan's overrides apply (SPEC §4).
   */
  readonly idempotent?: boolean | undefined;
  /**
   * States that the tool is latent (no `run`: a call's value comes from the plan's `_output`) or not;
   * refused when it disagrees with `run`. Default: latent exactly when there is no `run`.
   */
  readonly latent?: boolean | undefined;
  /**
   * The implementation; absent for latent tools (value comes from `_output`). A method, so its argument is
   * compared both ways: a plain tool may declare its own argument type (`run(args: { q: string })`; with
   * an `interface` type, which has no index signature, give it as a `type` or cast). Arguments are checked
   * against the input schema at run time.
   */
  run?(args: InferInput<In>, ctx: ToolContext): unknown;
}

/**
 * Defines a tool with types inferred from its zod schemas (an identity function at run time). Without an
 * `output` schema, `run` may return anything (a value, a promise it builds, a branch result); with one,
 * its result (or the promise's) is held to the schema's type.
 */
export function defineTool<In extends SchemaInput>(
  definition: ToolDefinition<In, JsonObject> & {
    readonly output?: undefined;
    run?: (args: InferInput<In>, ctx: ToolContext) => unknown;
  },
): ToolDefinition<In, JsonObject>;
/** Defines a tool whose `run` result is typed by its `output` schema. */
export function defineTool<In extends SchemaInput, Out extends SchemaInput = JsonObject>(
  definition: ToolDefinition<In, Out> & {
    run?: (
      args: InferInput<In>,
      ctx: ToolContext,
    ) => InferOutput<Out> | BranchResult | Promise<InferOutput<Out> | BranchResult>;
  },
): ToolDefinition<In, Out>;
export function defineTool<In extends SchemaInput, Out extends SchemaInput>(
  definition: ToolDefinition<In, Out>,
): ToolDefinition<In, Out> {
  return definition;
}

/**
 * A tool in the spec's own form (SPEC §9): a JSON Schema object whose `properties._tool` is a `const` naming
 * the tool, with the parameters, `_outputPath` and `_output` constraints as properties. It has no `run`: its
 * implementation is given apart (`implementations`); without one the tool is latent.
 */
export interface SpecFormTool {
  /** The parameters and meta-property constraints; `_tool.const` is the tool's name. */
  readonly properties: { readonly _tool: { readonly const: string } } & { readonly [name: string]: unknown };
  /** Any other JSON Schema keyword (`type`, `required`, `description`, `outcomes`, …). */
  readonly [keyword: string]: unknown;
}
