import type { JsonObject, Path } from "@obelisk/core";
import { TreeEditor } from "./tree-editor.js";

/**
 * Removes the value at `path` (copy on write, structural sharing), as an `unset` entry of the write log
 * folds. The result's new nodes are NOT frozen: they belong to the thread's working tree (a frozen node
 * must only hold frozen nodes, see `readState`). Returns `root` itself when nothing is there. An array
 * element becomes `null` (a hole) instead of being spliced out, so no other element moves (decision 0013).
 */
export function unsetAtPath(root: JsonObject, path: Path): JsonObject {
  const editor = new TreeEditor(root);
  editor.remove(path);
  return editor.root;
}
