import { ObeliskError } from "@obelisk/core";

/** One run's hold on the engine: the signal it runs under, and `release` when its record is finished. */
export interface RunLease {
  /** Aborted by the caller's signal or by `engine.close()`. */
  readonly signal: AbortSignal;
  /** The run has ended (record finished, lock released): `close()` stops waiting for it. */
  release(): void;
  /** What `close()` calls after aborting the run, to end it (a streaming run's own `close`). */
  closer?: () => Promise<unknown>;
}

interface Held {
  readonly lease: RunLease;
  readonly released: Promise<void>;
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
    if (this.closing) throw new ObeliskError("STORE_CLOSED", "the engine is closed");
    const controller = new AbortController();
    const follow = () => controller.abort(given?.reason);
    if (given?.aborted) follow();
    else given?.addEventListener("abort", follow, { once: true });
    let resolve = (): void => {};
    const released = new Promise<void>((done) => {
      resolve = done;
    });
    const lease: RunLease = {
      signal: controller.signal,
      release: () => {
        given?.removeEventListener("abort", follow);
        this.leases.delete(controller);
        resolve();
      },
    };
    this.leases.set(controller, { lease, released });
    return lease;
  }

  /** Refuses new runs, cancels the ones in flight and waits until each has released its lease. */
  async closeAll(): Promise<void> {
    this.closing = true;
    const waiting = [...this.leases];
    for (const [controller, held] of waiting) {
      controller.abort(new ObeliskError("STORE_CLOSED", "the engine is closing"));
      // a streaming run ends when it is closed: its caller may never do it now
      held.lease.closer?.().catch(() => undefined);
    }
    await Promise.all(waiting.map(([, held]) => held.released));
  }
}
