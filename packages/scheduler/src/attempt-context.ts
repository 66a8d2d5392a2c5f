import { type BranchResult, branch, type ToolContext } from "@obelisk/compiler";
import { asCallId, asRunId, asThreadId } from "@obelisk/core";
import { contentDigest } from "./call-hash.js";
import type { InvokeRequest } from "./invoke-request.js";

/**
 * `<threadId>:<callId>:<16 hex digits of the tool and the arguments it gets>`: the same for every attempt
 * and resume of one call, different when a later plan reuses the call id with other arguments (ids an LLM
 * chose, such as "pay", repeat across a thread's runs: `idempotencyKey` alone then repeats for a different
 * charge). Not the output path: where a result is written does not make the side effect another one.
 */
function contentKey(request: InvokeRequest): string {
  return `${request.threadId}:${request.callId}:${contentDigest(request.toolName, request.args)}`;
}

/**
 * The context a tool attempt gets: a class, so `contentKey` is a getter on the prototype — computed when
 * read (most tools never do, and the digest walks the arguments) without an object literal with an
 * accessor, which V8 builds on its slow path (~0.6 µs per call).
 */
export class AttemptContext implements ToolContext {
  readonly callId: ToolContext["callId"];
  readonly runId: ToolContext["runId"];
  readonly threadId: ToolContext["threadId"];
  readonly idempotencyKey: string;
  /** The last `ctx.branch()` choice of the attempt (see {@link returned}). */
  chosen: BranchResult | undefined;
  readonly #request: InvokeRequest;
  #contentKey: string | undefined;

  constructor(
    request: InvokeRequest,
    readonly attempt: number,
    readonly signal: AbortSignal,
  ) {
    this.#request = request;
    this.callId = asCallId(request.callId);
    this.runId = asRunId(request.runId);
    this.threadId = asThreadId(request.threadId);
    this.idempotencyKey = `${request.threadId}:${request.callId}`;
  }

  get contentKey(): string {
    this.#contentKey ??= contentKey(this.#request);
    return this.#contentKey;
  }

  branch(alternative: number | string, value: unknown): BranchResult {
    const result = branch(alternative, value);
    // `const { branch } = ctx` loses `this`: its result still works when returned
    if (this instanceof AttemptContext) this.chosen = result;
    return result;
  }
}
