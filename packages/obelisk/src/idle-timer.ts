import { systemTimers, type Timers } from "@obelisk/scheduler";

/** A stream's idle timeout: `onIdle` runs once when `ms` pass without `touch()`. */
export interface IdleTimer {
  /** The host did something (added a call): the wait starts again. */
  touch(): void;
  /** The stream is closing: the timeout never fires afterwards. */
  stop(): void;
  /** True once the timeout fired. */
  readonly fired: boolean;
}

const NO_TIMEOUT: IdleTimer = { touch: () => {}, stop: () => {}, fired: false };

/**
 * Starts an idle timeout of `ms` (none when undefined). The handle is unref'd when it can be: a host that
 * forgot a stream still lets its process exit as it did without the option (its record then stays
 * `running`, as a run's whose process died does: `resume` takes it up).
 */
export function startIdleTimer(
  ms: number | undefined,
  onIdle: () => void,
  timers: Timers = systemTimers,
): IdleTimer {
  if (ms === undefined) return NO_TIMEOUT;
  let handle: unknown;
  let fired = false;
  let stopped = false;
  const arm = (): void => {
    handle = timers.setTimeout(() => {
      if (stopped) return;
      fired = true;
      stopped = true;
      onIdle();
    }, ms);
    (handle as { unref?: () => void } | null)?.unref?.();
  };
  arm();
  return {
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
    get fired() {
      return fired;
    },
  };
}
