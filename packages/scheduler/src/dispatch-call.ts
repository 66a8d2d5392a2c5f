import type { RegisteredTool } from "@obelisk/compiler";
import { asThreadId, type JsonObject, ObeliskError } from "@obelisk/core";
import type { Awaitable } from "@obelisk/state";
import { isThenable } from "./awaitable.js";
import { callHash } from "./call-hash.js";
import { confirmThenExecute, paramsRefused, rerunAsked, shownParams } from "./confirm-call.js";
import type { DispatchHost } from "./dispatch-host.js";
import { completedBefore } from "./own-record-match.js";
import { afterLookup } from "./record-lookup.js";
import { refusedApproval } from "./refused-approval.js";
import { resolveParams } from "./resolve-params.js";
import { reuse } from "./reuse-record.js";
import type { CallRun } from "./runner-types.js";

/**
 * Dispatches a ready call: resolves its parameters (frozen), defers latent calls without `_output`, skips
 * satisfied calls (same hash completed before, unless `_rerun`, the host's `rerun` or a `fresh` tool; on resume the call's own
 * completed record satisfies it whatever they say), asks the confirm hook,
 * then invokes the tool.
 */
export function dispatchCall(
  host: DispatchHost,
  index: number,
  run: CallRun,
  tool: RegisteredTool,
): Awaitable<void> {
  const call = run.call;
  if (host.aborted) return host.end(index, { status: "cancelled", wrote: [], reason: host.abortReason });
  try {
    run.params = resolveParams(call, host.context, host.options.maxValueBytes, host.operands, index);
    run.shownParams = shownParams(host, call, run.params);
  } catch (error) {
    // References that would make the parameters larger than one value may be (bug H6): the call fails
    // before the tool runs; its record keeps no parameters.
    if (!ObeliskError.is(error) || error.code !== "OUTPUT_TOO_LARGE") throw error;
    run.params = undefined;
    return host.end(index, {
      status: "failed",
      wrote: [],
      error: {
        name: "ObeliskError",
        code: error.code,
        message: error.message,
        data: error.data as JsonObject,
      },
    });
  }
  // Literal parameters were checked at compile time; values that came through references are checked
  // here, so a tool never receives arguments its input schema refuses. Not when an approval is answered
  // false or null: a person's no ends the call `rejected` (`confirmThenExecute`), not `failed` for a type
  // the schema does not take there (decision 0048, amended at stop 39).
  if (call.references.length > 0 && !tool.latent && refusedApproval(tool, call, run.params) === undefined) {
    const refused = paramsRefused(tool, run.params);
    if (refused !== undefined) return host.end(index, refused);
  }
  if (tool.latent && !call.hasOutput) {
    return host.end(index, {
      status: "deferred",
      wrote: [],
      reason: `latent tool ${call.tool} without _output`,
    });
  }
  const { store, threadId, resumedRecords } = host.options;
  // nothing on the thread can satisfy the call: no lookup, and no hash until the store needs one (for a
  // call with `_output` the key holds the output, which its record does not: it is hashed now)
  // (a call shown with host values left out is hashed now: the store would hash the shown parameters)
  if (
    resumedRecords === undefined &&
    !call.hasOutput &&
    run.shownParams === undefined &&
    host.hashLater(call.tool)
  )
    return confirmThenExecute(host, index, run, tool);
  // resolved parameters are deep-frozen (resolveParams): the digests of their large arrays can be kept
  run.hash = callHash(call, run.params, true);
  // resumed: the call's own record of the chain first (the store answers only the latest of a key, which
  // may be an identical sibling's: a completed push would run again). It satisfies `_rerun` calls and
  // `fresh` tools too: a resume finishes the interrupted run, it does not repeat its side effects
  // (decision 0045).
  const own = resumedRecords?.get(call.id);
  if (
    own !== undefined &&
    completedBefore(own, call, run.hash, run.shownParams ?? run.params) &&
    host.claim(own)
  )
    return reuse(host, index, run, own);
  if (tool.fresh || rerunAsked(host, call, tool)) return confirmThenExecute(host, index, run, tool);
  const found = store.findCompletedCall(asThreadId(threadId), run.hash);
  // Synchronous stores (memory, SQLite) answer at once: no closure, no microtask hop.
  if (!isThenable(found)) return afterLookup(host, index, run, tool, found);
  return Promise.resolve(found).then((record) => afterLookup(host, index, run, tool, record));
}
