import type { CompiledCall } from "@obelisk/compiler";
import type { CallRun } from "./runner-types.js";

/** A call's run state before its dispatch: every member present, in one order (one hidden class). */
export function newCallRun(call: CompiledCall): CallRun {
  return {
    call,
    params: undefined,
    shownParams: undefined,
    plannedParams: undefined,
    hash: undefined,
    attempts: 0,
    startedAt: undefined,
    pending: undefined,
    ending: undefined,
    report: undefined,
  };
}
