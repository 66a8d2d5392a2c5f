import type { JsonObject, JsonValue, Path } from "@obelisk/core";
import { getAtPath } from "@obelisk/core";
import type { StateWrite } from "../store-types.js";
import type { ModelOverlay } from "./model-overlay.js";
import type { VariableEntry } from "./thread-model.js";
import { refreshed, type Writer } from "./variable-entry.js";

/**
 * The variables below a written path: a `set` replaces the value, so they are superseded (dropped). An
 * accumulating write keeps those whose values it left as they were (an append never changes existing
 * items; `assign` and `merge` leave the keys they do not name) and refreshes those a deep `merge` changed
 * inside, keeping their writer and description.
 */
export function settleBelow(
  overlay: ModelOverlay,
  write: StateWrite,
  below: readonly VariableEntry[],
  state: JsonObject,
  writer: Writer,
  touch: number,
): void {
  for (let at = 0; at < below.length; at++) {
    const entry = below[at] as VariableEntry;
    const fate = write.method === "set" ? "drop" : fateBelow(write, entry.path, state);
    if (fate === "drop") overlay.remove(entry.meta.reference);
    else if (fate === "refresh") {
      const value = valueAt(state, entry.path);
      if (value === undefined) overlay.remove(entry.meta.reference);
      else overlay.put(refreshed(entry, value, writer, touch));
    }
  }
}

/** What an accumulating write did to a variable below its path (see {@link settleBelow}). */
function fateBelow(write: StateWrite, path: Path, state: JsonObject): "keep" | "drop" | "refresh" {
  if (write.method === "push" || write.method === "concat") return "keep";
  let level: JsonValue = write.value;
  for (let depth = write.path.length; depth < path.length; depth++) {
    const segment = path[depth];
    if (typeof level !== "object" || level === null || Array.isArray(level)) return "keep";
    if (typeof segment !== "string" || !Object.hasOwn(level, segment)) return "keep";
    if (write.method === "assign") return "drop";
    const next = (level as JsonObject)[segment] as JsonValue;
    // merge places a value as it is where it replaces (not both objects): the same value is there now
    const here = valueAt(state, path.slice(0, depth + 1));
    if (here === next && here !== undefined) return "drop";
    if (depth === path.length - 1) return "refresh";
    level = next;
  }
  return "keep";
}

/** The value at a path of the state, or undefined when there is none (JSON has no undefined). */
export function valueAt(state: JsonObject, path: Path): JsonValue | undefined {
  const found = getAtPath(state, path);
  return found.found ? found.value : undefined;
}
