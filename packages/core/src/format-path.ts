import { isName } from "./name-grammar.js";
import type { Path } from "./path.js";

/** Canonical text of a path (the part after the kind): `.name`, `["other key"]`, `[index]`. */
export function formatPath(path: Path): string {
  let text = "";
  for (const segment of path) {
    if (typeof segment === "number") text += `[${segment}]`;
    else if (isName(segment)) text += `.${segment}`;
    else text += `[${JSON.stringify(segment)}]`;
  }
  return text;
}

/** Canonical text of a reference `†<kind><path>`. */
export function formatReference(kind: string, path: Path): string {
  return `†${kind}${formatPath(path)}`;
}
