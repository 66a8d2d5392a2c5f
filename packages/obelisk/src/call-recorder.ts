import type { CompiledCall } from "@obelisk/compiler";
import type { JsonValue, RunId } from "@obelisk/core";
import { isThenable } from "@obelisk/scheduler";
import type { StateStore } from "@obelisk/state";

/**
 * A streaming run's accepted calls, each appended to the run record (`appendRunCalls`) before it is handed
 * to the runner: a process that dies mid-stream leaves a record `resume` can re-run. A synchronous store
 * records a call before `add` returns (a failure throws from `add`, and the call does not run); with an
 * asynchronous store the calls go to the runner in order once each is recorded, and the first failure
 * stops the later calls and is thrown by {@link settled} (so `close` fails the run).
 */
export class CallRecorder {
  private chain: Promise<void> | undefined;
  private failure: { readonly error: unknown } | undefined;

  constructor(
    private readonly store: StateStore,
    private readonly runId: RunId,
    private readonly start: (call: CompiledCall) => void,
  ) {}

  /** Records `json` (the call as submitted; undefined: nothing to record) and then starts `call`. */
  record(json: JsonValue | undefined, call: CompiledCall): void {
    if (this.chain !== undefined) {
      this.chain = this.chain.then(() => this.recordAsync(json, call));
      return;
    }
    const recorded = json === undefined ? undefined : this.store.appendRunCalls?.(this.runId, [json]);
    if (!isThenable(recorded)) {
      this.start(call);
      return;
    }
    this.chain = Promise.resolve(recorded).then(
      () => this.start(call),
      (error: unknown) => {
        this.failure ??= { error };
      },
    );
  }

  /** Resolves when every call is recorded and started; throws the first recording failure. */
  async settled(): Promise<void> {
    await this.chain;
    if (this.failure !== undefined) throw this.failure.error;
  }

  private async recordAsync(json: JsonValue | undefined, call: CompiledCall): Promise<void> {
    if (this.failure !== undefined) return;
    try {
      if (json !== undefined) await this.store.appendRunCalls?.(this.runId, [json]);
      this.start(call);
    } catch (error) {
      this.failure ??= { error };
    }
  }
}
