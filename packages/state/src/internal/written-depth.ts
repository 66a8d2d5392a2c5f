import { MAX_VALUE_DEPTH, type OutputMethod } from "@obelisk/core";

/**
 * How deep the deepest container of a value written at a path of `segments` segments sits in the state
 * (the state's root object is level 1, so `†state.a = {}` is level 2): the path's segments plus the
 * value's height (`toJsonValue`'s), one more for `push`, which puts the value into an array at the path.
 * `merge`, `assign` and `concat` place the value's members at the levels `set` would.
 */
export function writtenDepth(segments: number, height: number, method: OutputMethod): number {
  return segments + height + (method === "push" ? 1 : 0);
}

/** Why a write of a value `height` levels high at `reference` is refused: it would nest `depth` levels deep. */
export function tooDeepMessage(reference: string, segments: number, height: number, depth: number): string {
  const push = depth > segments + height ? " + 1 for push" : "";
  return `${reference}: the value would nest ${depth} levels deep in the state (${segments} path segments + ${height} levels of the value${push}), deeper than ${MAX_VALUE_DEPTH} levels, the most a stored value may nest (MAX_VALUE_DEPTH): a reader could not take it`;
}
