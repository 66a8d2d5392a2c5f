import { setOwn } from "./json-container.js";
import { appendPointer } from "./json-pointer.js";
import type { JsonValue } from "./json-value.js";
import { DEFAULT_LIMITS } from "./limits.js";
import { thrownMessage } from "./thrown-message.js";
import { isKnownDeeplyFrozen, markCopyDeeplyFrozen } from "./value-deep-freeze.js";
import { jsonPrimitiveByteSize, jsonStringByteSize } from "./value-json-byte-size.js";

/** Values nested deeper than this (containers; the root container is depth 1) are not accepted as JSON. */
export const MAX_VALUE_DEPTH = 1000;

/** Options of {@link toJsonValue}. */
export interface ToJsonValueOptions {
  /** Maximum size of the value's compact JSON in UTF-8 bytes (default: `DEFAULT_LIMITS.maxValueBytes`). */
  readonly maxBytes?: number;
  /**
   * Remember the copy: a later `toJsonValue` of it, at any depth of what it copies, takes it as it is
   * instead of copying it again. For copies that are handed on and copied once more (a tool's output on its
   * way into the store); other copies skip the bookkeeping.
   */
  readonly remember?: boolean;
}

/**
 * The roots of the frozen copies {@link toJsonValue} made with `remember`, with their JSON size and height.
 * Copying one of them again (the scheduler copies a tool's output, then the store copies the record holding
 * it) returns it as it is: it is frozen JSON already, so the second copy could not differ from it.
 */
const FROZEN_COPIES = new WeakMap<object, KnownCopy>();

/** What is remembered of a frozen copy: its JSON size, and its height (levels of containers, itself included). */
interface KnownCopy {
  readonly bytes: number;
  readonly height: number;
}

/**
 * Remembers a container as if {@link toJsonValue} had copied it with `remember`, with its JSON size in bytes
 * and its height: copying it again, at any depth of a value, then returns it as it is. For a value its caller
 * built and deeply froze itself, that nobody else holds a mutable reference to (a store's value parsed from
 * its own file), whose size and height it knows. Ignored (false) unless the value is a container known to
 * be deeply frozen (`deepFreeze`, `markDeeplyFrozen`), or when it is remembered already.
 */
export function rememberFrozenCopy(value: JsonValue, bytes: number, height: number): boolean {
  if (typeof value !== "object" || value === null || !isKnownDeeplyFrozen(value)) return false;
  // a container's JSON is at least `[]`, and it is one level at least
  if (!Number.isSafeInteger(bytes) || bytes < 2 || !Number.isSafeInteger(height) || height < 1) return false;
  if (FROZEN_COPIES.has(value)) return false;
  FROZEN_COPIES.set(value, { bytes, height });
  return true;
}

/** The size and height of a value when it is one of {@link toJsonValue}'s own frozen copies. */
function knownCopy(value: object): KnownCopy | undefined {
  return Object.isFrozen(value) ? FROZEN_COPIES.get(value) : undefined;
}

/**
 * The result of {@link toJsonValue}: a frozen, prototype-safe copy with its JSON size and height (levels of
 * containers, the value itself included: 0 for a string, number, boolean or null), or why the value is not
 * acceptable.
 */
export type ToJsonValueResult =
  | { ok: true; value: JsonValue; bytes: number; height: number }
  | { ok: false; code: "OUTPUT_NOT_JSON" | "OUTPUT_TOO_LARGE"; message: string; pointer: string };

type Container = JsonValue[] | Record<string, JsonValue>;

interface Frame {
  readonly source: object;
  readonly copy: Container;
  readonly keys: readonly string[] | undefined;
  /** The array's length or the keys' count, read once (a Proxy may answer another length each time). */
  readonly length: number;
  readonly depth: number;
  readonly startBytes: number;
  index: number;
  members: number;
  height: number;
}

class Rejection {
  constructor(
    readonly code: "OUTPUT_NOT_JSON" | "OUTPUT_TOO_LARGE",
    readonly message: string,
    readonly pointer: string,
  ) {}
}

const where = (pointer: string): string => (pointer === "" ? "the value itself" : `at ${pointer}`);

/**
 * The JSON Pointer of the member each of the first `level` frames is copying: built only when a value is
 * rejected, so copying costs no string work per node.
 */
function pointerAt(stack: readonly Frame[], level: number): string {
  let pointer = "";
  for (let index = 0; index < level; index++) {
    const frame = stack[index] as Frame;
    pointer = appendPointer(pointer, frame.keys?.[frame.index - 1] ?? frame.index - 1);
  }
  return pointer;
}

/** A message names at most this many leading and trailing segments of its pointer (`pointer` has all). */
const SHOWN_HEAD_SEGMENTS = 10;
const SHOWN_TAIL_SEGMENTS = 3;
/** Characters of one key a message shows. */
const SHOWN_KEY_CHARS = 40;

/**
 * The pointer of the first `level` frames as a message shows it: a deep one cut to its first and last
 * segments with how many were left out, a long key cut (s35 security review L3: a 200,000-deep output's
 * message held a 2 KB pointer, repeated in each place the error is kept).
 */
function shownPointer(stack: readonly Frame[], level: number): string {
  const segment = (index: number): string => {
    const frame = stack[index] as Frame;
    const key = frame.keys?.[frame.index - 1];
    if (key === undefined) return appendPointer("", frame.index - 1);
    return appendPointer("", key.length > SHOWN_KEY_CHARS ? `${key.slice(0, SHOWN_KEY_CHARS)}…` : key);
  };
  const indexes = (from: number, to: number): string =>
    Array.from({ length: to - from }, (_, offset) => segment(from + offset)).join("");
  if (level <= SHOWN_HEAD_SEGMENTS + SHOWN_TAIL_SEGMENTS) return indexes(0, level);
  const left = level - SHOWN_HEAD_SEGMENTS - SHOWN_TAIL_SEGMENTS;
  return `${indexes(0, SHOWN_HEAD_SEGMENTS)}/…(${left} more)${indexes(level - SHOWN_TAIL_SEGMENTS, level)}`;
}

/** Throws a rejection at the member the first `level` frames point to. */
function reject(
  stack: readonly Frame[],
  level: number,
  code: Rejection["code"],
  describeProblem: string,
): never {
  const pointer = pointerAt(stack, level);
  const shown = pointer === "" ? "" : shownPointer(stack, level);
  const message = code === "OUTPUT_TOO_LARGE" ? describeProblem : `${describeProblem} (${where(shown)})`;
  throw new Rejection(code, message, pointer);
}

/** Why a non-container value is not JSON, or undefined if it is. */
function primitiveProblem(value: unknown): string | undefined {
  switch (typeof value) {
    case "number":
      return Number.isFinite(value) ? undefined : `${value} is not a JSON number`;
    case "string":
    case "boolean":
      return undefined;
    case "object":
      return value === null ? undefined : "unreachable";
    case "undefined":
      return "undefined is not JSON";
    default:
      return `a ${typeof value} is not JSON`;
  }
}

/** True for a plain object (prototype Object.prototype or null, from any realm) or an array. */
function isPlainContainer(value: object): boolean {
  if (Array.isArray(value)) return true;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === null || Object.getPrototypeOf(proto) === null;
}

function describeInstance(value: object): string {
  const name = (value as { constructor?: { name?: unknown } }).constructor?.name;
  return `an instance of ${typeof name === "string" && name !== "" ? name : "a class"} is not JSON`;
}

/** Copies a value as plain frozen JSON data (see {@link toJsonValue}); throws a Rejection. */
function copyValue(root: unknown, maxBytes: number): { value: JsonValue; bytes: number; height: number } {
  let bytes = 0;
  const stack: Frame[] = [];
  // cycle and sharing bookkeeping only exists once a container holds a container (small values allocate none)
  let active: Set<object> | undefined;
  let memo: Map<object, { copy: Container; bytes: number; height: number }> | undefined;
  /** Counts bytes; `level` frames locate the member being counted (for the error pointer). */
  const add = (count: number, level: number): void => {
    bytes += count;
    if (bytes > maxBytes) reject(stack, level, "OUTPUT_TOO_LARGE", `larger than ${maxBytes} bytes of JSON`);
  };
  /** Returns the copy of a leaf or memoized container, or undefined after pushing a new frame. */
  const enter = (value: unknown, depth: number): JsonValue | undefined => {
    const level = stack.length;
    if (typeof value !== "object" || value === null) {
      const problem = primitiveProblem(value);
      if (problem !== undefined) reject(stack, level, "OUTPUT_NOT_JSON", problem);
      add(jsonPrimitiveByteSize(value as null | boolean | number | string), level);
      return Object.is(value, -0) ? 0 : (value as JsonValue);
    }
    if (level > 0 && active === undefined) active = new Set(stack.map((frame) => frame.source));
    if (active?.has(value)) reject(stack, level, "OUTPUT_NOT_JSON", "a cycle");
    if (!isPlainContainer(value)) reject(stack, level, "OUTPUT_NOT_JSON", describeInstance(value));
    if (level > 0) memo ??= new Map();
    const done = memo?.get(value);
    if (done !== undefined && depth + done.height - 1 <= MAX_VALUE_DEPTH) {
      add(done.bytes, level);
      const parent = stack[level - 1];
      if (parent !== undefined) parent.height = Math.max(parent.height, done.height + 1);
      return done.copy;
    }
    if (depth > MAX_VALUE_DEPTH)
      reject(stack, level, "OUTPUT_NOT_JSON", `nested deeper than ${MAX_VALUE_DEPTH} levels`);
    const keys = Array.isArray(value) ? undefined : Object.keys(value);
    const length = keys === undefined ? (value as unknown[]).length : keys.length;
    const copy: Container = keys === undefined ? [] : {};
    add(2, level);
    // n items take at least 2n - 1 bytes (a digit each, commas between): refused before reading them
    if (keys === undefined && bytes + 2 * length - 1 > maxBytes)
      reject(stack, level, "OUTPUT_TOO_LARGE", `larger than ${maxBytes} bytes of JSON`);
    const startBytes = bytes - 2;
    stack.push({ source: value, copy, keys, length, depth, startBytes, index: 0, members: 0, height: 1 });
    active?.add(value);
    return undefined;
  };
  let result = enter(root, 1);
  let height = 0;
  while (stack.length > 0) {
    const frame = stack[stack.length - 1]!;
    const child = nextChild(frame, stack, add);
    if (child !== undefined) {
      const copied = enter(child.value, frame.depth + 1);
      if (copied !== undefined) place(frame, child.key, copied);
      continue;
    }
    stack.pop();
    active?.delete(frame.source);
    Object.freeze(frame.copy);
    const parent = stack[stack.length - 1];
    if (parent === undefined) {
      result = frame.copy;
      height = frame.height;
    } else {
      memo?.set(frame.source, { copy: frame.copy, bytes: bytes - frame.startBytes, height: frame.height });
      parent.height = Math.max(parent.height, frame.height + 1);
      place(parent, parent.keys?.[parent.index - 1], frame.copy);
    }
  }
  return { value: result as JsonValue, bytes, height };
}

/** The next member of a frame to copy (skipping undefined properties), or undefined when done. */
function nextChild(
  frame: Frame,
  stack: readonly Frame[],
  add: (count: number, level: number) => void,
): { key: string | undefined; value: unknown } | undefined {
  const source = frame.source as Record<string, unknown>;
  const length = frame.length;
  while (frame.index < length) {
    const key = frame.keys?.[frame.index];
    const value = key === undefined ? source[frame.index] : source[key];
    frame.index++;
    if (key === undefined) {
      if (value === undefined) reject(stack, stack.length, "OUTPUT_NOT_JSON", "undefined in an array");
      if (frame.members++ > 0) add(1, stack.length);
      return { key, value };
    }
    if (value === undefined) continue;
    add(jsonStringByteSize(key) + (frame.members++ > 0 ? 2 : 1), stack.length);
    return { key, value };
  }
  return undefined;
}

/** Puts a copied child into its parent's copy (a `__proto__` key stays own data). */
function place(frame: Frame, key: string | undefined, value: JsonValue): void {
  if (Array.isArray(frame.copy)) frame.copy.push(value);
  else if (key !== undefined) setOwn(frame.copy, key, value);
}

/** What the quick copy has counted so far, and its byte limit. */
interface QuickCounter {
  bytes: number;
  nodes: number;
  /** The deepest container level reached (the root is level 1): the copy's height. */
  deepest: number;
  readonly maxBytes: number;
}

/** Marks a value the quick copy leaves to the careful one. */
const SLOW_PATH: unique symbol = Symbol("slow path");
/** Depth and node budget of the quick copy: cycles and exponential sharing end in the careful path. */
const QUICK_MAX_DEPTH = 64;
const QUICK_MAX_NODES = 1 << 20;
/** Lists up to this long are copied into an exact-size list (longer ones grow by push). */
const QUICK_EXACT_ITEMS = 64;

/**
 * The common case of {@link toJsonValue} without its bookkeeping: small, plain, acyclic values copied
 * recursively. Anything unusual (a non-JSON value, an instance, `__proto__` or undefined members, depth
 * or size beyond the budget) returns SLOW_PATH and the careful copy decides, with its precise errors.
 */
function quickCopy(value: unknown, depth: number, counter: QuickCounter): JsonValue | typeof SLOW_PATH {
  if (++counter.nodes > QUICK_MAX_NODES) return SLOW_PATH;
  switch (typeof value) {
    case "string":
      counter.bytes += jsonStringByteSize(value);
      return value;
    case "boolean":
      counter.bytes += value ? 4 : 5;
      return value;
    case "number":
      if (!Number.isFinite(value)) return SLOW_PATH;
      counter.bytes += jsonPrimitiveByteSize(value);
      return value === 0 ? 0 : value;
    case "object":
      break;
    default:
      return SLOW_PATH;
  }
  if (value === null) {
    counter.bytes += 4;
    return null;
  }
  if (depth > QUICK_MAX_DEPTH || counter.bytes > counter.maxBytes) return SLOW_PATH;
  const known = knownCopy(value);
  if (known !== undefined) {
    const reach = depth + known.height - 1;
    if (reach > MAX_VALUE_DEPTH) return SLOW_PATH;
    if (reach > counter.deepest) counter.deepest = reach;
    counter.bytes += known.bytes;
    return value as JsonValue;
  }
  if (depth > counter.deepest) counter.deepest = depth;
  if (Array.isArray(value)) {
    const length = value.length;
    // Exact size up to QUICK_EXACT_ITEMS: a list grown by push from empty keeps room for 17 items, and the
    // copy lives as long as the document (a plan's `inputs` lists hold one to three references).
    const copy: JsonValue[] = length > 0 && length <= QUICK_EXACT_ITEMS ? new Array(length) : [];
    counter.bytes += length === 0 ? 2 : length + 1;
    // each item is at least one byte: an array claiming more items than the bytes left is too large now
    if (counter.bytes + length > counter.maxBytes) return SLOW_PATH;
    // `length` read once: a Proxy answering 1 and then 10⁹ is copied for the length checked (review s40 rev1)
    for (let i = 0; i < length; i++) {
      const item = quickCopy(value[i], depth + 1, counter);
      if (item === SLOW_PATH) return SLOW_PATH;
      copy[i] = item;
    }
    return Object.freeze(copy);
  }
  const proto: unknown = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return SLOW_PATH;
  const copy: Record<string, JsonValue> = {};
  let members = 0;
  // for-in over own keys: the order and keys of Object.keys, without a list of them per object
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue;
    if (key === "__proto__") return SLOW_PATH;
    const member = (value as Record<string, unknown>)[key];
    if (member === undefined) return SLOW_PATH;
    const item = quickCopy(member, depth + 1, counter);
    if (item === SLOW_PATH) return SLOW_PATH;
    copy[key] = item;
    counter.bytes += jsonStringByteSize(key) + 1;
    members++;
  }
  counter.bytes += members === 0 ? 2 : members + 1;
  return Object.freeze(copy);
}

/**
 * Checks that a tool's return value is JSON and returns a deep, frozen, prototype-safe copy with its size.
 * Rejected (OUTPUT_NOT_JSON, naming the first offender's pointer): functions, symbols, BigInt, NaN and
 * ±Infinity, undefined inside arrays or at the top, cycles, class instances (Date, Map, …), nesting deeper
 * than {@link MAX_VALUE_DEPTH}. Undefined object properties are dropped, as JSON does. Over `maxBytes`:
 * OUTPUT_TOO_LARGE. Iterative, O(size); shared sub-objects are copied once and shared (they are frozen).
 * A container that is itself one of these copies, made with `remember`, is reused as it is, at any depth.
 */
export function toJsonValue(value: unknown, options: ToJsonValueOptions = {}): ToJsonValueResult {
  const maxBytes = options.maxBytes ?? DEFAULT_LIMITS.maxValueBytes;
  try {
    const fast: QuickCounter = { bytes: 0, nodes: 0, deepest: 0, maxBytes };
    const copied = quickCopy(value, 1, fast);
    if (copied !== SLOW_PATH && fast.bytes <= maxBytes)
      return copyMade(copied, fast.bytes, fast.deepest, options.remember === true);
  } catch {
    // a throwing getter: the careful path below reports it
  }
  try {
    const copied = copyValue(value, maxBytes);
    return copyMade(copied.value, copied.bytes, copied.height, options.remember === true);
  } catch (error) {
    if (error instanceof Rejection)
      return { ok: false, code: error.code, message: error.message, pointer: error.pointer };
    const reason = thrownMessage(error);
    return { ok: false, code: "OUTPUT_NOT_JSON", message: `reading the value threw: ${reason}`, pointer: "" };
  }
}

/**
 * A successful copy; a container copied with `remember` is remembered, so copying it again costs nothing,
 * and known deeply frozen (every node was frozen as it was made, or is a remembered copy): `deepFreeze` of
 * it returns at once (a satisfied call's recorded result is the very copy the state holds, 100k objects).
 */
function copyMade(value: JsonValue, bytes: number, height: number, remember: boolean): ToJsonValueResult {
  if (remember && typeof value === "object" && value !== null && !FROZEN_COPIES.has(value)) {
    FROZEN_COPIES.set(value, { bytes, height });
    markCopyDeeplyFrozen(value);
  }
  return { ok: true, value, bytes, height };
}
