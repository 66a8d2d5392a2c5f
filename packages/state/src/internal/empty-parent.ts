import type { JsonValue, Path } from "@obelisk/core";
import { getAtPath } from "@obelisk/core";

/** Keys of an object or items of an array; -1 for anything else (not a container). */
function contentSize(value: JsonValue): number {
  if (Array.isArray(value)) return value.length;
  if (typeof value === "object" && value !== null) return Object.keys(value).length;
  return -1;
}

/**
 * The outermost container above `path` (in `state`, read after the value at `path` was removed) that is left
 * holding nothing but the now-empty chain down to `path`, and that no variable sits at (`isVariable`: it was
 * only created as a parent of a write below it; a container written as `{}` or `[]` is a variable and stays).
 * Undefined when the parent still holds something, is a variable, or is the state itself.
 */
export function emptyParent(
  state: JsonValue,
  path: Path,
  isVariable: (length: number) => boolean,
): Path | undefined {
  let outermost: Path | undefined;
  for (let length = path.length - 1; length > 0; length--) {
    if (isVariable(length)) break;
    const parent = path.slice(0, length);
    const found = getAtPath(state, parent);
    // the innermost parent must be empty; each one above it holds only the chain being removed
    if (!found.found || contentSize(found.value) !== (length === path.length - 1 ? 0 : 1)) break;
    outermost = parent;
  }
  return outermost;
}
