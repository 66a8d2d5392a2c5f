import type { CompiledCall } from "@obelisk/compiler";
import { canonicalJson, type JsonValue, type Path } from "@obelisk/core";
import type { StateWrite } from "@obelisk/state";

/** The state writes of a value written to one alternative of a call's output path (fan-out: every target). */
export function writesFor(call: CompiledCall, alternative: number, value: JsonValue): StateWrite[] {
  const targets = call.outputPath?.alternatives[alternative] ?? [];
  const method = call.outputMethod;
  // The common single state target gets an exact-size list (a list grown by push reserves 17 places).
  const only = targets.length === 1 ? targets[0] : undefined;
  if (only !== undefined && only.kind === "state")
    return [{ path: only.path, method, value, reference: only.text }];
  const writes: StateWrite[] = [];
  for (const target of targets) {
    if (target.kind !== "state") continue;
    writes.push({ path: target.path, method, value, reference: target.text });
  }
  return writes;
}

/**
 * Writes of a satisfied call that must be re-applied because their targets no longer hold the recorded
 * value: a `set` target whose value differs, or any target that is missing (accumulating targets that
 * exist are left alone: re-appending would duplicate).
 */
export function missingWrites(stateAt: StateReader, writes: readonly StateWrite[]): StateWrite[] {
  return writes.filter((write) => {
    const current = stateAt(write.path);
    if (current === undefined) return true;
    return write.method === "set" && canonicalJson(current) !== canonicalJson(write.value);
  });
}

/** Reads the run's current state at a path (`undefined`: nothing there). */
export type StateReader = (path: Path) => JsonValue | undefined;
