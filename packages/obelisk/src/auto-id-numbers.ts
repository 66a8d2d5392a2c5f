import type { CompiledCall } from "@obelisk/compiler";
import type { ThreadId } from "@obelisk/core";
import type { StateStore } from "@obelisk/state";

/** The number of a call's automatic id (`<tool>$<n>`); undefined for a call with a given `_id`. */
export function autoIdNumber(call: Pick<CompiledCall, "id" | "raw">): number | undefined {
  if (call.raw._id !== undefined) return undefined;
  const at = call.id.lastIndexOf("$");
  const number = Number(call.id.slice(at + 1));
  return at >= 0 && Number.isSafeInteger(number) && number > 0 ? number : undefined;
}

/** The highest automatic id number among `calls` (0 when none has an automatic id). */
export function highestAutoIdNumber(calls: readonly Pick<CompiledCall, "id" | "raw">[]): number {
  let highest = 0;
  for (const call of calls) highest = Math.max(highest, autoIdNumber(call) ?? 0);
  return highest;
}

/**
 * A stream's automatic id numbers, reserved on the thread as its calls are accepted: a call's number is
 * reserved before the call is recorded (and so before it can start), so a stream whose process dies
 * leaves the thread's counter past every id its recorded calls hold — a later run never gets one of them
 * (decision 0099). `through` is the highest number reserved so far (the one `open` reserved).
 */
export class StreamCallNumbers {
  constructor(
    private readonly store: StateStore,
    private readonly threadId: ThreadId,
    private through: number,
  ) {}

  /** Reserves the numbers up to `call`'s automatic id (nothing for a given `_id` or a number reserved). */
  reserveFor(call: Pick<CompiledCall, "id" | "raw">): unknown {
    const number = autoIdNumber(call);
    if (number === undefined || number <= this.through) return undefined;
    const reserved = this.store.reserveCallNumbers(this.threadId, number - this.through);
    // a synchronous store that threw reserved nothing: the next call reserves from the same place
    this.through = number;
    return reserved;
  }
}

/**
 * Moves the thread's counter past `highest` when it is not past it yet: a resumed or re-sent run numbers its
 * calls as the run it continues did, with numbers that run reserved — all of them since decision 0099, but
 * a stream recorded before it reserved one at open and the rest at a close that a crash never reached. A
 * store that cannot tell its next number (no `nextCallNumber`) is left as it is.
 */
export async function reservePast(store: StateStore, threadId: ThreadId, highest: number): Promise<void> {
  if (highest < 1 || store.nextCallNumber === undefined) return;
  const next = await store.nextCallNumber(threadId);
  if (Number.isSafeInteger(next) && next <= highest)
    await store.reserveCallNumbers(threadId, highest - next + 1);
}

/**
 * The thread's next automatic id number when the store can tell it without reserving (undefined when it
 * cannot): a run compiles with it and then reserves, so a plan with automatic ids is compiled once, not
 * twice. Asking creates no thread (1 for a thread the store does not hold: decision 0022).
 */
export async function toldCallNumber(store: StateStore, threadId: ThreadId): Promise<number | undefined> {
  const next = await store.nextCallNumber?.(threadId);
  return Number.isSafeInteger(next) && (next as number) > 0 ? (next as number) : undefined;
}
