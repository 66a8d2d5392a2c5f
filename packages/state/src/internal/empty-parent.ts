import type { JsonValue, Path } from "@obelisk/core";
import type { TreeEditor } from "./tree-editor.js";

const keyOf = (path: Path): string => JSON.stringify(path);

/**
 * True when a container holds nothing: an object without keys, or an array whose items are all holes
 * (`null` where no variable sits: what evicting an element leaves, decision record 0013). A `null` a write
 * put at an element is a variable and counts as content.
 */
function holdsNothing(
  value: JsonValue | undefined,
  path: Path,
  isVariable: (path: Path) => boolean,
): boolean {
  if (typeof value !== "object" || value === null) return false;
  if (!Array.isArray(value)) return Object.keys(value).length === 0;
  for (let index = 0; index < value.length; index++)
    if (value[index] !== null || isVariable([...path, index])) return false;
  return true;
}

/**
 * Removes, after a batch of removals (`removed`: their paths), the containers above them left holding
 * nothing, innermost first and up the path, unless a variable sits at one (`isVariable`: something wrote
 * it as a target; a container written as `{}` stays) or it is the state itself (decision record 0010).
 * Each container is looked at once per batch. Returns the outermost removed containers (to be logged: a
 * replay that removes them after the batch's own removals gets the same tree).
 */
export function removeEmptyParents(
  editor: TreeEditor,
  removed: readonly Path[],
  isVariable: (path: Path) => boolean,
): Path[] {
  const byDepth = new Map<number, Map<string, Path>>();
  let deepest = 0;
  const offer = (path: Path): void => {
    if (path.length === 0) return;
    let bucket = byDepth.get(path.length);
    if (bucket === undefined) {
      bucket = new Map();
      byDepth.set(path.length, bucket);
    }
    bucket.set(keyOf(path), path);
    deepest = Math.max(deepest, path.length);
  };
  for (const path of removed) offer(path.slice(0, -1));
  const gone = new Set<string>();
  const removedParents: Path[] = [];
  for (let depth = deepest; depth > 0; depth--) {
    for (const [key, path] of byDepth.get(depth) ?? []) {
      if (isVariable(path) || !holdsNothing(editor.get(path), path, isVariable)) continue;
      editor.remove(path);
      gone.add(key);
      removedParents.push(path);
      offer(path.slice(0, -1));
    }
  }
  return removedParents.filter((path) => !gone.has(keyOf(path.slice(0, -1))));
}
