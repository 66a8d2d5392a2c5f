import { type JsonValue, jsonByteSize } from "@obelisk/core";

/** Bounds of a value's compact JSON size in UTF-8 bytes. */
export interface SizeBounds {
  lower: number;
  upper: number;
}

/**
 * Bounds of frozen containers measured before (a frozen JSON container never changes): a large stored
 * value is walked once, however many calls and references read it. Small ones are not kept (walking them
 * again costs less than the entry).
 */
const KNOWN = new WeakMap<object, Readonly<SizeBounds>>();

/** Containers walked with at least this many nodes (or copies of at least this many bytes) are remembered. */
const REMEMBER_FROM = 256;

/** Deeper than this, a subtree is measured by core's iterative `jsonByteSize` (no deep recursion). */
const MAX_RECURSION = 200;

/** The JSON of any finite number, boolean or null is 1 to 24 bytes (`-1.7976931348623157e+308`). */
const PRIMITIVE_MAX_BYTES = 24;

/** Nodes visited by the walk in progress (module state: walks are synchronous and never nested). */
let visited = 0;

/** Remembers the exact size of a frozen container measured elsewhere (a copy `toJsonValue` just made). */
export function rememberJsonBytes(value: JsonValue, bytes: number): void {
  if (bytes >= REMEMBER_FROM && typeof value === "object" && value !== null && Object.isFrozen(value))
    KNOWN.set(value, { lower: bytes, upper: bytes });
}

/**
 * Adds bounds of `value`'s JSON size to `into`, without building any text and without allocating (but for
 * a large container's remembered entry): a string counts its length plus the quotes at least (every UTF-16
 * unit is one byte or more) and six bytes a unit at most (`\u0000` escapes), numbers 1 to 24 bytes.
 */
export function addJsonBounds(value: JsonValue, into: SizeBounds): void {
  if (typeof value === "string") {
    into.lower += value.length + 2;
    into.upper += value.length * 6 + 2;
  } else if (typeof value !== "object" || value === null) {
    into.lower += 1;
    into.upper += PRIMITIVE_MAX_BYTES;
  } else {
    visited = 0;
    walk(value, into, 0);
  }
}

function walk(value: JsonValue, into: SizeBounds, depth: number): void {
  visited++;
  if (typeof value === "string") {
    into.lower += value.length + 2;
    into.upper += value.length * 6 + 2;
    return;
  }
  if (typeof value !== "object" || value === null) {
    into.lower += 1;
    into.upper += PRIMITIVE_MAX_BYTES;
    return;
  }
  const known = KNOWN.get(value);
  if (known !== undefined) {
    into.lower += known.lower;
    into.upper += known.upper;
    return;
  }
  if (depth > MAX_RECURSION) {
    const bytes = jsonByteSize(value);
    into.lower += bytes;
    into.upper += bytes;
    return;
  }
  const lower = into.lower;
  const upper = into.upper;
  const start = visited;
  walkContainer(value, into, depth);
  if (visited - start >= REMEMBER_FROM && Object.isFrozen(value))
    KNOWN.set(value, { lower: into.lower - lower, upper: into.upper - upper });
}

function walkContainer(value: object, into: SizeBounds, depth: number): void {
  let members = 0;
  if (Array.isArray(value)) {
    members = value.length;
    for (let index = 0; index < members; index++) walk(value[index] as JsonValue, into, depth + 1);
  } else {
    for (const key in value) {
      if (!Object.hasOwn(value, key)) continue;
      const item = (value as Record<string, JsonValue | undefined>)[key];
      if (item === undefined) continue;
      members++;
      into.lower += key.length + 3;
      into.upper += key.length * 6 + 3;
      walk(item, into, depth + 1);
    }
  }
  const punctuation = members === 0 ? 2 : members + 1;
  into.lower += punctuation;
  into.upper += punctuation;
}
