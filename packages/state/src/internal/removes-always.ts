import type { Path } from "@obelisk/core";

/** A text segment that reads as an array index (`"0"`, `"12"`): on an array it addresses nothing. */
const INDEX_TEXT = /^(?:0|[1-9][0-9]*)$/;

/**
 * True when an `unset` at `path` removes whatever is there, whatever the containers on the way: not when a
 * segment below the root is index-like text (`a["0"]`), which removes a key of an object but nothing of an
 * array, where `a[0]` would leave a hole. A written path never has one on an array (the write would fail),
 * so only such removals are not covers.
 */
export function removesAlways(path: Path): boolean {
  for (let depth = 1; depth < path.length; depth++) {
    const segment = path[depth];
    if (typeof segment === "string" && INDEX_TEXT.test(segment)) return false;
  }
  return true;
}
