import { type JsonValue, jsonByteSizeWithin, resolveLimits } from "@obelisk/core";
import type { Engine } from "obelisk";
import { displayText } from "../display-text.js";
import { withValueLimitHint } from "../limits-option.js";
import type { Output } from "../output.js";
import { parseJsonValue } from "../parse-input.js";
import { usageError } from "../usage-error.js";
import { IN_MEMORY_SQLITE } from "../what-next.js";
import { type StateOptions, singleRef } from "./state-options.js";

/**
 * The `--value` of `state set`, parsed: USAGE when it is missing, not JSON, or larger than `maxValueBytes`
 * (as the engine refuses it, but before the store is opened: a refused set creates no store file).
 */
export function setValue(options: StateOptions): JsonValue {
  const ref = singleRef(options);
  if (options.value === undefined) throw usageError("state set needs --value <json>");
  const value = parseJsonValue(options.value, "--value");
  const limits = resolveLimits(options.limits);
  if (jsonByteSizeWithin(value, limits.maxValueBytes) === undefined) {
    const tooLarge = usageError(
      `${ref}: the value is larger than ${limits.maxValueBytes} bytes of JSON (limits.maxValueBytes)`,
    );
    throw withValueLimitHint(tooLarge, value, limits);
  }
  return value;
}

/** `state set --ref --value`: writes one value by reference. */
export async function stateSet(engine: Engine, options: StateOptions, output: Output): Promise<void> {
  const ref = singleRef(options);
  const value = setValue(options);
  try {
    await engine.set(options.thread, ref, value);
  } catch (error) {
    throw withValueLimitHint(error, value, resolveLimits(options.limits));
  }
  output.json({ ok: true, threadId: options.thread, ref, value });
  output.line(`${output.colors.green("✓")} wrote ${ref} on thread ${displayText(options.thread)}`);
  // as run says it (review s41 r2 #13): a value written to a store that ends with the command is gone
  if (options.store === "memory" || options.store === IN_MEMORY_SQLITE)
    output.line(
      output.colors.dim(
        `the ${options.store === "memory" ? "memory store" : "database in memory"} ends with this command, and the value with it; the default store (sqlite:.obelisk/state.db) keeps it`,
      ),
    );
}
