import { isName } from "./name-grammar.js";
import type { Path, PathSegment } from "./path.js";

/** Canonical text of one path segment: `.name`, `["other key"]` or `[index]`. */
export function formatSegment(segment: PathSegment): string {
  if (typeof segment === "number") return `[${segment}]`;
  return isName(segment) ? `.${segment}` : `[${JSON.stringify(segment)}]`;
}

/** Canonical text of a path (the part after the kind): `.name`, `["other key"]`, `[index]`. */
export function formatPath(path: Path): string {
  let text = "";
  for (const segment of path) text += formatSegment(segment);
  return text;
}

/** Canonical text of a reference `†<kind><path>`. */
export function formatReference(kind: string, path: Path): string {
  return `†${kind}${formatPath(path)}`;
}
