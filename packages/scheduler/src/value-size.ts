import { type JsonValue, jsonByteSize, MAX_VALUE_DEPTH } from "@obelisk/core";

/** Bounds of a value's compact JSON size in UTF-8 bytes. */
export interface SizeBounds {
  lower: number;
  upper: number;
}

/** What is remembered of a large frozen container: its size bounds and its height. */
interface Known extends Readonly<SizeBounds> {
  readonly height: number;
}

/**
 * Bounds of frozen containers measured before (a frozen JSON container never changes): a large stored
 * value is walked once, however many calls and references read it. Small ones are not kept (walking them
 * again costs less than the entry).
 */
const KNOWN = new WeakMap<object, Known>();

/** Containers walked with at least this many nodes (or copies of at least this many bytes) are remembered. */
const REMEMBER_FROM = 256;

/** Deeper than this, a subtree is measured by core's iterative `jsonByteSize` (no deep recursion). */
const MAX_RECURSION = 200;

/** The JSON of any finite number, boolean or null is 1 to 24 bytes (`-1.7976931348623157e+308`). */
const PRIMITIVE_MAX_BYTES = 24;

/** Nodes visited by the walk in progress (module state: walks are synchronous and never nested). */
let visited = 0;

/** Remembers the exact size and height of a frozen container measured elsewhere (a copy `toJsonValue` just made). */
export function rememberJsonBytes(value: JsonValue, bytes: number, height: number): void {
  if (bytes >= REMEMBER_FROM && typeof value === "object" && value !== null && Object.isFrozen(value))
    KNOWN.set(value, { lower: bytes, upper: bytes, height });
}

/**
 * Adds bounds of `value`'s JSON size to `into`, without building any text and without allocating (but for
 * a large container's remembered entry): a string counts its length plus the quotes at least (every UTF-16
 * unit is one byte or more) and six bytes a unit at most (`\u0000` escapes), numbers 1 to 24 bytes.
 * Returns the value's height (levels of containers, itself included; 0 for a string, number, boolean or
 * null), found by the same walk (decision 0094: resolved parameters are held to `MAX_VALUE_DEPTH`).
 */
export function addJsonBounds(value: JsonValue, into: SizeBounds): number {
  if (typeof value === "string") {
    into.lower += value.length + 2;
    into.upper += value.length * 6 + 2;
    return 0;
  }
  if (typeof value !== "object" || value === null) {
    into.lower += 1;
    into.upper += PRIMITIVE_MAX_BYTES;
    return 0;
  }
  visited = 0;
  return walk(value, into, 0);
}

/** Adds the bounds of `value` to `into` and returns its height. */
function walk(value: JsonValue, into: SizeBounds, depth: number): number {
  visited++;
  if (typeof value === "string") {
    into.lower += value.length + 2;
    into.upper += value.length * 6 + 2;
    return 0;
  }
  if (typeof value !== "object" || value === null) {
    into.lower += 1;
    into.upper += PRIMITIVE_MAX_BYTES;
    return 0;
  }
  const known = KNOWN.get(value);
  if (known !== undefined) {
    into.lower += known.lower;
    into.upper += known.upper;
    return known.height;
  }
  if (depth > MAX_RECURSION) {
    const bytes = jsonByteSize(value);
    into.lower += bytes;
    into.upper += bytes;
    return jsonHeight(value);
  }
  const lower = into.lower;
  const upper = into.upper;
  const start = visited;
  const height = walkContainer(value, into, depth);
  if (visited - start >= REMEMBER_FROM && Object.isFrozen(value))
    KNOWN.set(value, { lower: into.lower - lower, upper: into.upper - upper, height });
  return height;
}

/** Adds the bounds of a container's members and punctuation to `into` and returns its height. */
function walkContainer(value: object, into: SizeBounds, depth: number): number {
  let members = 0;
  let below = 0;
  if (Array.isArray(value)) {
    members = value.length;
    for (let index = 0; index < members; index++) {
      const height = walk(value[index] as JsonValue, into, depth + 1);
      if (height > below) below = height;
    }
  } else {
    for (const key in value) {
      if (!Object.hasOwn(value, key)) continue;
      const item = (value as Record<string, JsonValue | undefined>)[key];
      if (item === undefined) continue;
      members++;
      into.lower += key.length + 3;
      into.upper += key.length * 6 + 3;
      const height = walk(item, into, depth + 1);
      if (height > below) below = height;
    }
  }
  const punctuation = members === 0 ? 2 : members + 1;
  into.lower += punctuation;
  into.upper += punctuation;
  return below + 1;
}

/**
 * The height of a container too deep to recurse into: an iterative post-order walk, each container walked
 * once however often it is shared (a frozen copy shares repeated sub-values); past `MAX_VALUE_DEPTH` levels
 * it stops, answering a height over it (a cycle ends there too).
 */
function jsonHeight(root: object): number {
  const heights = new Map<object, number>();
  interface Frame {
    readonly value: object;
    readonly members: readonly unknown[];
    index: number;
    height: number;
  }
  const open = (value: object): Frame => ({
    value,
    members: Array.isArray(value) ? value : Object.values(value),
    index: 0,
    height: 1,
  });
  const stack: Frame[] = [open(root)];
  let result = 0;
  while (stack.length > 0) {
    const frame = stack[stack.length - 1] as Frame;
    if (frame.index < frame.members.length) {
      const member = frame.members[frame.index++];
      if (typeof member !== "object" || member === null) continue;
      const known = heights.get(member) ?? KNOWN.get(member)?.height;
      if (known !== undefined) {
        if (known + 1 > frame.height) frame.height = known + 1;
      } else if (stack.length > MAX_VALUE_DEPTH)
        return stack.length + 1; // deeper than any value may be
      else stack.push(open(member));
      continue;
    }
    stack.pop();
    heights.set(frame.value, frame.height);
    const parent = stack[stack.length - 1];
    if (parent === undefined) result = frame.height;
    else if (frame.height + 1 > parent.height) parent.height = frame.height + 1;
  }
  return result;
}
