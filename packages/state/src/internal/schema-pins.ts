import type { JsonObject, Path } from "@obelisk/core";
import type { EvictionRequest } from "./plan-eviction.js";
import type { ThreadModel } from "./thread-model.js";

/** After this many rounds of pinning the requests an error names, every state eviction of the batch is left out. */
const MAX_ROUNDS = 8;

/** True when one path is a prefix of the other (or equal); segments compared as text (pointer segments). */
function related(path: Path, location: Path): boolean {
  const shorter = Math.min(path.length, location.length);
  for (let index = 0; index < shorter; index++)
    if (String(path[index]) !== String(location[index])) return false;
  return true;
}

/**
 * The state evictions a batch must leave out so that the state it leaves still matches the thread's
 * `stateSchema` (decision record 0013), or undefined when the batch may go as planned: no schema, no state
 * change, the state left matches, or the state did not match before the batch either (an eviction does
 * not hold a state the schema already refused). Pinned are the evictions at, above or below the place the
 * schema's first error names (a required property, a hole in an array of strings, the empty parent of an
 * evicted value); when none is there, or after {@link MAX_ROUNDS} rounds, every state eviction of the batch.
 * Costs one whole-state check per batch that changes the state (evictions run after runs, not per commit).
 */
export function schemaPins(
  model: ThreadModel,
  requests: readonly EvictionRequest[],
  after: JsonObject,
  round: number,
): Set<EvictionRequest> | undefined {
  const validator = model.validator;
  if (validator === undefined || after === model.state) return undefined;
  const location = validator.violation(after);
  if (location === undefined || validator.violation(model.state) !== undefined) return undefined;
  const states = requests.filter((request) => model.variables.get(request.reference)?.meta.scope === "state");
  const named = states.filter((request) => {
    const entry = model.variables.get(request.reference);
    return entry !== undefined && related(entry.path, location);
  });
  return new Set(named.length === 0 || round >= MAX_ROUNDS ? states : named);
}
