import { ObeliskError, readHostValue } from "@obelisk/core";
import { hostKindsOf } from "./engine-host-kinds.js";
import type { Engine } from "./engine-types.js";
import { type HostContext, normalizeContext } from "./normalize-input.js";

/**
 * `agentTools`' `context` (decision 0077): the values of the engine's host kinds its `run_plan` runs with and
 * its `validate_plan` judges with, read once as a frozen JSON copy. USAGE, naming `agentTools`, for what a
 * run's `context` refuses: not a plain object of JSON values, a key that is not a host kind of the engine
 * (with the nearest one), a getter that throws. An engine `createEngine` did not make is checked by its runs.
 * Undefined when not given.
 */
export function agentContext(engine: Engine, given: unknown): HostContext | undefined {
  if (given === undefined) return undefined;
  const kinds = hostKindsOf(engine.registry);
  if (kinds === undefined) return given as HostContext;
  try {
    return readHostValue("agentTools' context", () =>
      normalizeContext(given, kinds.names, engine.limits.maxValueBytes),
    ) as HostContext;
  } catch (error) {
    if (!ObeliskError.is(error, "USAGE") || error.message.startsWith("agentTools")) throw error;
    throw new ObeliskError("USAGE", `agentTools' context: ${error.message}`, {
      ...(error.hint === undefined ? {} : { hint: error.hint }),
    });
  }
}
