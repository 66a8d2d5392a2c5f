import { type Mutable, ObeliskError } from "@obelisk/core";
import { systemTimers, type Timers } from "@obelisk/scheduler";

/**
 * A stream's idle timeout: `onIdle` runs once when `ms` pass without `touch()`; then, when the stream's calls
 * have not ended another `ms` later, `abandoned` aborts (decision 0064).
 */
export interface IdleTimer {
  /** The host did something (added a call): the wait starts again. */
  touch(): void;
  /** The stream is closing: the timeout never fires afterwards (a grace already running goes on). */
  stop(): void;
  /** The stream's calls have all ended: the grace after an idle close is over, `abandoned` never aborts. */
  end(): void;
  /** True once the timeout fired. */
  readonly fired: boolean;
  /**
   * Aborted when the calls of a stream that closed itself still run `ms` after it did: the runner's calls
   * then get the abort their host, gone, cannot give. Undefined without a timeout.
   */
  readonly abandoned: AbortSignal | undefined;
}

const NO_TIMEOUT: IdleTimer = {
  touch: () => {},
  stop: () => {},
  end: () => {},
  fired: false,
  abandoned: undefined,
};

/**
 * Starts an idle timeout of `ms` (none when undefined). The handles are unref'd when they can be: a host that
 * forgot a stream still lets its process exit as it did without the option (its record then stays
 * `running`, as a run's whose process died does: `resume` takes it up).
 */
export function startIdleTimer(
  ms: number | undefined,
  onIdle: () => void,
  timers: Timers = systemTimers,
): IdleTimer {
  if (ms === undefined) return NO_TIMEOUT;
  const abandon = new AbortController();
  let handle: unknown;
  let stopped = false;
  let ended = false;
  const start = (callback: () => void): void => {
    handle = timers.setTimeout(callback, ms);
    (handle as { unref?: () => void } | null)?.unref?.();
  };
  const abandoned = (): void => {
    if (ended) return;
    ended = true;
    abandon.abort(
      new ObeliskError(
        "CANCELLED",
        `the stream closed itself after ${ms} ms without a call (its idleTimeoutMs) and its calls still ran ${ms} ms later`,
      ),
    );
  };
  const arm = (): void =>
    start(() => {
      if (stopped) return;
      timer.fired = true;
      stopped = true;
      // the grace for the calls in flight starts before onIdle: the close it begins may end them at once
      start(abandoned);
      onIdle();
    });
  // `fired` is a plain field, not a getter over a local: V8 keeps an own accessor's getter in
  // old-generation memory, and that closure (it reaches `onIdle`, the stream) would float through every
  // scavenge after the stream ends until the next full collection (compiler.md, stop 35).
  const timer: Mutable<IdleTimer> = {
    touch() {
      if (stopped) return;
      timers.clearTimeout(handle);
      arm();
    },
    stop() {
      if (stopped) return;
      stopped = true;
      timers.clearTimeout(handle);
    },
    end() {
      if (ended) return;
      ended = true;
      stopped = true;
      timers.clearTimeout(handle);
    },
    fired: false,
    abandoned: abandon.signal,
  };
  arm();
  return timer;
}
