import type { CompiledPlan } from "@obelisk/compiler";
import type { JsonObject, RunId, ThreadId } from "@obelisk/core";
import type { RunLock } from "@obelisk/state";
import type { RunAcceptor } from "./accepting-run.js";
import type { HostContext, NormalizedInput } from "./normalize-input.js";

/** What a validated, locked run needs to start. */
export interface PreparedRun {
  readonly threadId: ThreadId;
  /** The run's id, new to the store. */
  readonly runId: RunId;
  readonly input: NormalizedInput;
  readonly state: JsonObject;
  readonly compiled: CompiledPlan;
  readonly lock: RunLock;
  /** The run's host-kind values, as a frozen JSON copy. */
  readonly extraKinds: HostContext | undefined;
  /** The first automatic id number the plan was compiled with (absent: the plan has no automatic ids). */
  readonly firstAutoIdNumber: number | undefined;
}

/** How `EngineRuntime.prepare` prepares a run beyond its options. */
export interface PrepareSteps {
  /** A resumed run is numbered as the original was (its numbers are reserved already). */
  readonly resumed?: ResumedNumbering;
  /** Gives up the wait for the thread (THREAD_BUSY), and is what `accept` is told to stop on. */
  readonly signal?: AbortSignal;
  /** A stream's calls resumed: references nothing among them writes fail their own call, not the plan. */
  readonly streamed?: boolean;
  /** Asked once the plan compiled valid and its approved hash matched, before the run id is taken. */
  readonly accept?: RunAcceptor;
}

/** A resumed run's numbering: the original run's first automatic id number and the call ids it recorded. */
export interface ResumedNumbering {
  readonly firstAutoIdNumber: number;
  readonly ownCallIds: ReadonlySet<string>;
}
