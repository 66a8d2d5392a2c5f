import { type Mutable, ObeliskError, thrownMessage } from "@obelisk/core";

/** One run's hold on the engine: the signal it runs under, and `release` when its record is finished. */
export interface RunLease {
  /** Aborted by the caller's signal or by `engine.close()`. */
  readonly signal: AbortSignal;
  /**
   * What aborted `signal` first: the caller's signal, or `engine.close()` (a shutdown: the run's record
   * ends `interrupted`, to resume, decision 0030); undefined while it is not aborted.
   */
  readonly stoppedBy: "signal" | "engine-close" | undefined;
  /** The run has ended (record finished, lock released): `close()` stops waiting for it. */
  release(): void;
  /** What `close()` calls after aborting the run, to end it (a streaming run's own `close`). */
  closer?: () => Promise<unknown>;
}

interface Held {
  readonly lease: RunLease;
  readonly released: Promise<void>;
  /** Aborts the lease's signal as `engine.close()` does (no-op once aborted). */
  readonly shutDown: () => void;
}

/** Follows the caller's signal; a look-alike whose `addEventListener` throws is USAGE before anything is locked. */
function listen(given: AbortSignal | undefined, follow: () => void): void {
  try {
    given?.addEventListener("abort", follow, { once: true });
  } catch (error) {
    throw new ObeliskError("USAGE", `signal.addEventListener threw: ${thrownMessage(error)}`, {
      hint: "pass an AbortController's signal or AbortSignal.timeout(ms)",
      cause: error,
    });
  }
}

/**
 * The engine's runs in flight, so `close()` can cancel them and wait until each has finished its record
 * before the store closes (a run cut off by a closed store would stay `running` and lose its last results).
 */
export class ActiveRuns {
  private readonly leases = new Map<AbortController, Held>();
  private closing = false;

  /** A lease for a new run; STORE_CLOSED once `close()` has begun. */
  lease(given: AbortSignal | undefined): RunLease {
    if (this.closing)
      throw new ObeliskError("STORE_CLOSED", "the engine is closed", {
        hint: "engine.close() ends an engine for good: create a new one (createEngine) with an open store to run again",
      });
    const controller = new AbortController();
    const stop = (by: "signal" | "engine-close", reason: unknown): void => {
      if (controller.signal.aborted) return;
      lease.stoppedBy = by;
      controller.abort(reason);
    };
    const follow = () => stop("signal", given?.reason);
    let resolve = (): void => {};
    const released = new Promise<void>((done) => {
      resolve = done;
    });
    // `stoppedBy` is a plain field, not a getter over a local: V8 keeps an own accessor's getter in
    // old-generation memory, and that closure would keep the whole run (the signal's listeners reach the
    // runner) alive through every scavenge until the next full collection (compiler.md, stop 35).
    const lease: Mutable<RunLease> = {
      signal: controller.signal,
      stoppedBy: undefined,
      release: () => {
        // the lease goes whatever the caller's signal does: a throwing removeEventListener must not leave
        // `close()` waiting for a run that has ended
        this.leases.delete(controller);
        resolve();
        try {
          given?.removeEventListener("abort", follow);
        } catch {
          // the run has ended: a late abort of its controller changes nothing
        }
      },
    };
    if (given?.aborted) follow();
    else listen(given, follow);
    const shutDown = () => stop("engine-close", new ObeliskError("STORE_CLOSED", "the engine is closing"));
    this.leases.set(controller, { lease, released, shutDown });
    return lease;
  }

  /** Refuses new runs, cancels the ones in flight and waits until each has released its lease. */
  async closeAll(): Promise<void> {
    this.closing = true;
    const waiting = [...this.leases.values()];
    for (const held of waiting) {
      held.shutDown();
      // a streaming run ends when it is closed: its caller may never do it now
      held.lease.closer?.().catch(() => undefined);
    }
    await Promise.all(waiting.map((held) => held.released));
  }
}
