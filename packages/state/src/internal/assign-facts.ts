import { isJsonObject, type JsonObject, type JsonValue, jsonByteSize } from "@obelisk/core";
import type { StateWrite } from "../store-types.js";
import { STORED_PREVIEW_CHARS } from "./describe-value.js";
import type { VariableEntry } from "./thread-model.js";

/** The size, key count and (when unchanged) preview of an object variable after an `assign` or `merge` into it. */
export interface AssignedFacts {
  readonly bytes: number;
  readonly count: number;
  /** The variable's preview when the write cannot change it (see `keepsPreview`). */
  readonly preview: string | undefined;
}

/** An array-index-like key: objects list such keys first, so one added may show in a preview. */
const INDEX_LIKE = /^(?:0|[1-9][0-9]*)$/;

/**
 * Measured before an `assign` of an object into the object a variable holds (its facts current), or a
 * `merge` that only adds keys: the variable's size and key count after it, from the members the write adds
 * or replaces (their old and new sizes), not from the whole object (stop 31: an assign into an object of n
 * keys walked and listed n keys). Undefined when the write is not such an assign or merge.
 */
export function assignedFacts(
  state: JsonObject,
  write: StateWrite,
  previous: VariableEntry | undefined,
): AssignedFacts | undefined {
  const { value } = write;
  const merge = write.method === "merge";
  if ((write.method !== "assign" && !merge) || !isJsonObject(value) || previous?.meta.type !== "object")
    return undefined;
  let node: JsonValue | undefined = state;
  for (let depth = 0; depth < write.path.length && node !== undefined; depth++) {
    if (!isJsonObject(node)) return undefined;
    const key = String(write.path[depth]);
    node = Object.hasOwn(node, key) ? node[key] : undefined;
  }
  if (!isJsonObject(node)) return undefined;
  const before = previous.meta.count ?? 0;
  let bytes = previous.meta.bytes;
  let count = before;
  let onlyAppended = true;
  for (const key of Object.keys(value)) {
    const added = jsonByteSize(value[key] as JsonValue);
    if (Object.hasOwn(node, key)) {
      // a merge into an existing member combines the two: its size is not known without walking them
      if (merge) return undefined;
      bytes += added - jsonByteSize(node[key] as JsonValue);
      onlyAppended = false;
    } else {
      bytes += jsonByteSize(key) + 1 + added + (count > 0 ? 1 : 0);
      count++;
      if (INDEX_LIKE.test(key)) onlyAppended = false;
    }
  }
  return { bytes, count, preview: keepsPreview(previous.meta.preview, before, onlyAppended) };
}

/**
 * The preview an object variable keeps when a write only appends keys after its last one: when the preview
 * was cut (`…}`) and the object had at least as many keys as the preview has characters, the preview walk
 * stopped among the first members (each shown member takes two characters or more, and a share looks eight
 * members ahead), so members added after the last are never looked at. A preview walks `Object.keys` of
 * the object (O(keys) for a large one): n merges of one key each into one object were O(n²) (8,000 took
 * 8.5 s, docs/performance/state.md stop 36).
 */
function keepsPreview(preview: string, keys: number, onlyAppended: boolean): string | undefined {
  return onlyAppended && keys >= STORED_PREVIEW_CHARS && preview.endsWith("…}") ? preview : undefined;
}
