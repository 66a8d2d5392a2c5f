import type { CompiledCall } from "@obelisk/compiler";
import type { JsonValue, RunId } from "@obelisk/core";
import { isThenable } from "@obelisk/scheduler";
import type { StateStore } from "@obelisk/state";

/** A step before a call starts: `undefined` or a value when done, a thenable while it is being done. */
type Step = () => unknown;

/**
 * A streaming run's accepted calls, each appended to the run record (`appendRunCalls`) before it is handed
 * to the runner: a process that dies mid-stream leaves a record `resume` can re-run. Before that, `reserve`
 * takes the call's automatic id number on the thread (decision 0099). A synchronous store records a call
 * before `add` returns (a failure throws from `add`, and the call does not run); with an asynchronous store
 * the calls go to the runner in order once each is recorded, and the first failure stops the later calls
 * and is thrown by {@link settled} (so `close` fails the run).
 */
export class CallRecorder {
  private chain: Promise<void> | undefined;
  private failure: { readonly error: unknown } | undefined;

  constructor(
    private readonly store: StateStore,
    private readonly runId: RunId,
    private readonly start: (call: CompiledCall) => void,
    private readonly reserve: (call: CompiledCall) => unknown = () => undefined,
  ) {}

  /** Reserves `call`'s number, records `json` (the call as submitted; undefined: nothing to record), starts it. */
  record(json: JsonValue | undefined, call: CompiledCall): void {
    const steps: Step[] = [
      () => this.reserve(call),
      () => (json === undefined ? undefined : this.store.appendRunCalls?.(this.runId, [json])),
    ];
    if (this.chain !== undefined) {
      this.chain = this.chain.then(() => this.recordAsync(steps, 0, call));
      return;
    }
    for (let at = 0; at < steps.length; at++) {
      const done = (steps[at] as Step)();
      if (!isThenable(done)) continue;
      this.chain = Promise.resolve(done).then(
        () => this.recordAsync(steps, at + 1, call),
        (error: unknown) => {
          this.failure ??= { error };
        },
      );
      return;
    }
    this.start(call);
  }

  /** Resolves when every call is recorded and started; throws the first recording failure. */
  async settled(): Promise<void> {
    await this.chain;
    if (this.failure !== undefined) throw this.failure.error;
  }

  private async recordAsync(steps: readonly Step[], from: number, call: CompiledCall): Promise<void> {
    if (this.failure !== undefined) return;
    try {
      for (let at = from; at < steps.length; at++) await (steps[at] as Step)();
      this.start(call);
    } catch (error) {
      this.failure ??= { error };
    }
  }
}
