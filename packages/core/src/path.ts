/**
 * One step of a path: a string is an object key, a number an array index
 * (negative numbers count from the end, reads only).
 */
export type PathSegment = string | number;
/** A path from the root of a kind's value, e.g. `†state.user.name` → `["user", "name"]`. */
export type Path = readonly PathSegment[];

/** Path segments that can never appear in a reference or output path (SPEC §2 rule 5). */
export const FORBIDDEN_SEGMENTS: ReadonlySet<string> = new Set(["__proto__", "prototype", "constructor"]);
