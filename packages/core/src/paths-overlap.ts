import type { Path, PathSegment } from "./path.js";

/**
 * True when two paths may address overlapping values: equal, or one a prefix of the other.
 * Conservative: a negative index overlaps any index at that position, and an index overlaps the
 * object key spelled the same (`0` and `"0"`).
 */
export function pathsOverlap(a: Path, b: Path): boolean {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    if (!segmentsOverlap(a[i] as PathSegment, b[i] as PathSegment)) return false;
  }
  return true;
}

/** Whether two segments at the same position may address the same child. */
function segmentsOverlap(a: PathSegment, b: PathSegment): boolean {
  if (a === b) return true;
  if (typeof a === "number" && typeof b === "number") return a < 0 || b < 0;
  if (typeof a === "number") return a >= 0 && String(a) === b;
  if (typeof b === "number") return b >= 0 && String(b) === a;
  return false;
}
