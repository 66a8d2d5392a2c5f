import { isJsonObject, type JsonObject, type JsonValue, jsonByteSize } from "@obelisk/core";
import type { StateWrite } from "../store-types.js";
import type { VariableEntry } from "./thread-model.js";

/** The size and key count of an object variable after an `assign` into it, known without walking it. */
export interface AssignedFacts {
  readonly bytes: number;
  readonly count: number;
}

/**
 * Measured before an `assign` of an object into the object a variable holds (its facts current): the
 * variable's size and key count after it, from the members the assign adds or replaces (their old and new
 * sizes), not from the whole object (stop 31: an assign into an object of n keys walked and listed n keys).
 * Undefined when the write is not such an assign.
 */
export function assignedFacts(
  state: JsonObject,
  write: StateWrite,
  previous: VariableEntry | undefined,
): AssignedFacts | undefined {
  const { value } = write;
  if (write.method !== "assign" || !isJsonObject(value) || previous?.meta.type !== "object") return undefined;
  let node: JsonValue | undefined = state;
  for (let depth = 0; depth < write.path.length && node !== undefined; depth++) {
    if (!isJsonObject(node)) return undefined;
    const key = String(write.path[depth]);
    node = Object.hasOwn(node, key) ? node[key] : undefined;
  }
  if (!isJsonObject(node)) return undefined;
  let bytes = previous.meta.bytes;
  let count = previous.meta.count ?? 0;
  for (const key of Object.keys(value)) {
    const added = jsonByteSize(value[key] as JsonValue);
    if (Object.hasOwn(node, key)) bytes += added - jsonByteSize(node[key] as JsonValue);
    else {
      bytes += jsonByteSize(key) + 1 + added + (count > 0 ? 1 : 0);
      count++;
    }
  }
  return { bytes, count };
}
