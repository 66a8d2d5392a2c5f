/** The run_plan queue of one agent tools object (see {@link oneAtATime}). */
interface RunTurns {
  /**
   * Runs `task` once the tasks given before it have settled, in the order given; a task still waiting
   * after `waitMs` answers `timedOut()` instead and never runs (a run_plan called from inside a tool of the
   * run before it would otherwise wait for itself, then run after its caller gave up).
   */
  inTurn<T>(
    task: () => Promise<T>,
    timedOut: () => Promise<T>,
    signal: AbortSignal | undefined,
    cancelled: () => Promise<T>,
  ): Promise<T>;
  /**
   * Settles once the tasks given so far have (at once when none is pending), or after `waitMs`, or when
   * `signal` aborts: a read then answers what the thread holds at that moment (decision 0054).
   */
  afterPending(signal: AbortSignal | undefined): Promise<void>;
}

/** The queue that makes a model's parallel run_plan calls take turns, and its reads wait for them. */
export function oneAtATime(waitMs: number): RunTurns {
  let tail: Promise<void> = Promise.resolve();
  let pending = 0;
  const afterPending = (signal: AbortSignal | undefined): Promise<void> => {
    if (pending === 0 || signal?.aborted === true) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const end = (): void => {
        clearTimeout(timer);
        signal?.removeEventListener("abort", end);
        resolve();
      };
      const timer = setTimeout(end, waitMs);
      timer.unref?.();
      signal?.addEventListener("abort", end, { once: true });
      void tail.then(end);
    });
  };
  const inTurn = <T>(
    task: () => Promise<T>,
    timedOut: () => Promise<T>,
    signal: AbortSignal | undefined,
    cancelled: () => Promise<T>,
  ): Promise<T> => {
    const before = tail;
    let release!: () => void;
    pending++;
    const done = new Promise<void>((resolve) => {
      release = () => {
        pending--;
        resolve();
      };
    });
    tail = before.then(() => done);
    return new Promise<T>((resolve) => {
      let decided = false; // the task started, or the wait gave up
      const giveUp = (answer: () => Promise<T>): void => {
        if (decided) return;
        decided = true;
        clearTimeout(timer);
        signal?.removeEventListener("abort", onAbort);
        release();
        resolve(answer());
      };
      const onAbort = (): void => giveUp(cancelled);
      const timer = setTimeout(() => giveUp(timedOut), waitMs);
      timer.unref?.();
      if (signal?.aborted === true) giveUp(cancelled);
      else signal?.addEventListener("abort", onAbort, { once: true });
      void before.then(() => {
        if (decided) return;
        decided = true;
        clearTimeout(timer);
        signal?.removeEventListener("abort", onAbort);
        const run = task();
        resolve(run);
        void run.finally(release).catch(() => undefined);
      });
    });
  };
  return { inTurn, afterPending };
}
