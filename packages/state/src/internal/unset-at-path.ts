import type { JsonObject, JsonValue, Path } from "@obelisk/core";

/**
 * Removes the value at `path` (copy on write, structural sharing; the result's new nodes are frozen).
 * Returns `root` itself when nothing is there. Array elements are removed by splicing.
 */
export function unsetAtPath(root: JsonObject, path: Path): JsonObject {
  const result = removeBelow(root, path, 0);
  return (result ?? root) as JsonObject;
}

function removeBelow(current: JsonValue, path: Path, depth: number): JsonValue | undefined {
  const segment = path[depth];
  if (segment === undefined || typeof current !== "object" || current === null) return undefined;
  const last = depth === path.length - 1;
  if (Array.isArray(current)) {
    if (typeof segment !== "number" || segment < 0 || segment >= current.length) return undefined;
    const array = current as readonly JsonValue[];
    if (last) return Object.freeze(array.filter((_, index) => index !== segment));
    const child = removeBelow(array[segment]!, path, depth + 1);
    if (child === undefined) return undefined;
    return Object.freeze(array.map((item, index) => (index === segment ? child : item)));
  }
  const object = current as JsonObject;
  const key = String(segment);
  if (!Object.hasOwn(object, key)) return undefined;
  if (last) {
    const copy: Record<string, JsonValue> = { ...object };
    delete copy[key];
    return Object.freeze(copy);
  }
  const child = removeBelow(object[key]!, path, depth + 1);
  if (child === undefined) return undefined;
  return Object.freeze({ ...object, [key]: child });
}
