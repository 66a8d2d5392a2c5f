import type { JsonObject, JsonValue, Path } from "@obelisk/core";

/**
 * Removes the value at `path` (copy on write, structural sharing). The result's new nodes are NOT frozen:
 * they belong to the thread's working tree (a frozen node must only hold frozen nodes, see `readState`).
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
    if (last) return array.filter((_, index) => index !== segment);
    const child = removeBelow(array[segment]!, path, depth + 1);
    if (child === undefined) return undefined;
    return array.map((item, index) => (index === segment ? child : item));
  }
  const object = current as JsonObject;
  const key = String(segment);
  if (!Object.hasOwn(object, key)) return undefined;
  if (last) {
    const copy: Record<string, JsonValue> = { ...object };
    delete copy[key];
    return copy;
  }
  const child = removeBelow(object[key]!, path, depth + 1);
  if (child === undefined) return undefined;
  const copy: Record<string, JsonValue> = { ...object };
  Object.defineProperty(copy, key, { value: child, writable: true, enumerable: true, configurable: true });
  return copy;
}
