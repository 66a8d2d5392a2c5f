import type { CompiledCall, ParamReference } from "@obelisk/compiler";
import {
  canonicalJson,
  DEFAULT_LIMITS,
  type InputExpression,
  type JsonObject,
  type JsonValue,
  jsonByteSize,
  MAX_VALUE_DEPTH,
  ObeliskError,
  type Path,
  parseParameterString,
  type Reference,
  setOwn,
  toJsonValue,
} from "@obelisk/core";
import { addJsonBounds, rememberJsonBytes, type SizeBounds } from "./value-size.js";
import type { WorkingContext } from "./working-context.js";

const EMPTY: JsonObject = Object.freeze({});

/**
 * Scratch size bounds: of the parameters being resolved, and of one template piece (resolving is
 * synchronous and never nested, so one of each serves every call without allocating).
 */
const BOUNDS: SizeBounds = { lower: 0, upper: 0 };
const PIECE: SizeBounds = { lower: 0, upper: 0 };

/**
 * The most resolved parameters can hold whatever the configured limit: their JSON must fit in one
 * JavaScript string (V8: 2^29 − 24 UTF-16 units, each at least one byte) with room for the call hash's
 * keys around it.
 */
const MAX_PARAMS_BYTES = 2 ** 29 - 2 ** 20;

/** The most a call's parameters may hold under the run's value limit (resolved or modified by confirm). */
export function paramsLimit(maxValueBytes: number = DEFAULT_LIMITS.maxValueBytes): number {
  return Math.min(maxValueBytes, MAX_PARAMS_BYTES);
}

/** Marks a value that would make a call's resolved parameters larger than the limit. */
const TOO_LARGE: unique symbol = Symbol("too large");
type TooLarge = typeof TOO_LARGE;

/** The value of an expression: the first `||` alternative whose operands all exist; its last operand. */
export function evaluateExpression(
  expression: InputExpression,
  context: WorkingContext,
): JsonValue | undefined {
  return evaluateWithin(expression, context, Number.MAX_SAFE_INTEGER) as JsonValue | undefined;
}

/**
 * Which operands hold a value for this run (the decision core's answer: a path an earlier run left a value
 * at does not count when this plan's writer of it did not write it). Consulted for fallbacks only: a
 * single-alternative expression is dispatched only once all its operands are present.
 */
export interface OperandFilter {
  /** True when `reference`, an operand of the call at `index`, holds a value for this run. */
  present(index: number, reference: Reference): boolean;
}

/** The filter of the `resolveParams` in progress (it is synchronous), and its call's index. */
let activeFilter: OperandFilter | undefined;
let activeIndex = 0;

/** {@link evaluateExpression}, or TOO_LARGE when the copy of a runner-owned container passes `maxBytes`. */
function evaluateWithin(
  expression: InputExpression,
  context: WorkingContext,
  maxBytes: number,
): JsonValue | undefined | TooLarge {
  const filter = expression.alternatives.length > 1 ? activeFilter : undefined;
  for (const operands of expression.alternatives) {
    let value: JsonValue | undefined;
    for (const operand of operands) {
      value =
        filter === undefined || filter.present(activeIndex, operand) ? context.valueOf(operand) : undefined;
      if (value === undefined) break;
    }
    if (value !== undefined) return frozen(value, maxBytes);
  }
  return undefined;
}

/**
 * A value safe to hand out: frozen values as they are, containers the runner owns as frozen copies (whose
 * size is remembered), or TOO_LARGE when such a copy passes `maxBytes` (it stops there).
 */
function frozen(value: JsonValue, maxBytes: number): JsonValue | TooLarge {
  if (typeof value !== "object" || value === null || Object.isFrozen(value)) return value;
  const copy = toJsonValue(value, { maxBytes: Math.max(0, maxBytes) });
  if (!copy.ok) return copy.code === "OUTPUT_TOO_LARGE" ? TOO_LARGE : value;
  rememberJsonBytes(copy.value, copy.bytes, copy.height);
  return copy.value;
}

/**
 * A template's text: strings inserted as-is, other values as canonical JSON (SPEC §2 rule 2); TOO_LARGE as
 * soon as the text would pass `room` bytes of JSON (every UTF-16 unit is at least one byte, the quotes two
 * more), before the text is built: a template repeating a large value cannot grow without limit.
 */
function renderTemplate(
  parts: readonly (string | InputExpression)[],
  context: WorkingContext,
  room: number,
): string | TooLarge {
  let text = "";
  try {
    for (const part of parts) {
      const piece = typeof part === "string" ? part : templatePiece(part, context, room - text.length - 2);
      if (piece === TOO_LARGE || text.length + piece.length + 2 > room) return TOO_LARGE;
      text += piece;
    }
  } catch (error) {
    // a limit beyond what a JavaScript string can hold (Invalid string length): never uncaught
    if (error instanceof RangeError) return TOO_LARGE;
    throw error;
  }
  return text;
}

/** The text a template inserts for an expression, or TOO_LARGE when it cannot fit in `room` characters. */
function templatePiece(
  expression: InputExpression,
  context: WorkingContext,
  room: number,
): string | TooLarge {
  // JSON of B bytes has at least B / 3 UTF-16 units: a container over 3 × room bytes cannot fit
  const value = evaluateWithin(expression, context, room * 3);
  if (value === TOO_LARGE || typeof value === "string") return value;
  if (typeof value === "object" && value !== null) {
    PIECE.lower = 0;
    PIECE.upper = 0;
    addJsonBounds(value, PIECE);
    if (PIECE.lower > room * 3) return TOO_LARGE;
  }
  // keys in sorted order: an object built by several writers has them in the order they finished, and
  // the text must not depend on that (SPEC §2 determinism)
  return canonicalJson(value ?? null);
}

/** A literal's text with escapes removed (`††x` → `†x`, `{††` → `{†`); strings without a dagger are as-is. */
function literal(text: string): string {
  // Only a leading `††` and `{††` are escapes (SPEC §2 rule 3); references are overwritten by `setAt`.
  if (!text.startsWith("††") && !text.includes("{††")) return text;
  const parsed = parseParameterString(text);
  return parsed.ok && parsed.value.type === "literal" ? parsed.value.value : text;
}

/** A mutable deep copy of plain JSON (values from the plan), literal escapes removed. */
function copyTree(value: JsonValue): JsonValue {
  if (typeof value === "string") return literal(value);
  if (value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) return value.map(copyTree);
  const copy: Record<string, JsonValue> = {};
  // for-in reads the shape's cached key list where Object.keys copies it; inherited keys are skipped.
  for (const key in value) {
    if (Object.hasOwn(value, key)) setOwn(copy, key, copyTree((value as JsonObject)[key] as JsonValue));
  }
  return copy;
}

/** Freezes a tree, stopping at values that are already frozen (resolved context values). */
function freezeTree(value: JsonValue): void {
  if (value === null || typeof value !== "object" || Object.isFrozen(value)) return;
  Object.freeze(value);
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) freezeTree(value[index] as JsonValue);
    return;
  }
  for (const key in value) if (Object.hasOwn(value, key)) freezeTree((value as JsonObject)[key] as JsonValue);
}

/** The value at `location` (own properties only, as `setAt` writes them), or null when there is none. */
function valueAt(root: JsonValue, location: Path): JsonValue {
  let node: JsonValue | undefined = root;
  for (const key of location) {
    if (typeof node !== "object" || node === null || !Object.hasOwn(node, key)) return null;
    node = (node as Record<string | number, JsonValue>)[key];
  }
  return node ?? null;
}

/** Sets `value` at `location` inside a mutable copy. */
function setAt(root: JsonValue, location: Path, value: JsonValue): void {
  let node = root as Record<string | number, JsonValue>;
  for (let i = 0; i < location.length - 1; i++) {
    const key = location[i] as string | number;
    if (!Object.hasOwn(node, key)) return;
    node = node[key] as Record<string, JsonValue>;
  }
  setOwn(node, location[location.length - 1] as string | number, value);
}

/**
 * Resolves a call's parameters at dispatch: whole-value references keep their JSON type, templates
 * become strings, fallbacks and gates follow SPEC §2 (a fallback skips an operand `filter` says is not
 * present for this run; `index` is the call's). The result is frozen (values handed to tools are
 * immutable). Missing references resolve to `null` (readiness guarantees they exist).
 *
 * The resolved parameters are held to `limit` bytes of JSON (the run's value limit; one beyond what a
 * JavaScript string holds counts as ~511 MiB), measured while they are resolved, without serializing: a
 * few references to one large stored value cannot make a huge argument. Throws an `ObeliskError`
 * OUTPUT_TOO_LARGE (`data.pointer`: the reference where the limit was passed) as soon as it is passed;
 * the same, with `data.maxDepth`, for a value that would nest them deeper than `MAX_VALUE_DEPTH` (the
 * record could not keep them: decision 0094), found by the same walk.
 * Cheap bounds decide almost always (a string's length, a number, a container's bounds); only parameters
 * whose bounds straddle the limit are measured exactly, literals included.
 */
export function resolveParams(
  call: CompiledCall,
  context: WorkingContext,
  limit: number = DEFAULT_LIMITS.maxValueBytes,
  filter?: OperandFilter,
  index = 0,
): JsonObject {
  if (call.references.length === 0 && Object.keys(call.params).length === 0) return EMPTY;
  activeFilter = filter;
  activeIndex = index;
  try {
    return resolveReferences(call, context, limit);
  } finally {
    activeFilter = undefined;
  }
}

function resolveReferences(call: CompiledCall, context: WorkingContext, limit: number): JsonObject {
  const root = copyTree(call.params) as JsonObject;
  const references = call.references;
  const maxBytes = paramsLimit(limit);
  const bounds = BOUNDS;
  bounds.lower = 0;
  bounds.upper = 0;
  let exact: ExactSize | undefined;
  for (let index = 0; index < references.length; index++) {
    const reference = references[index] as ParamReference;
    if (reference.location.length === 0) continue;
    const parsed = reference.value;
    const room = maxBytes - bounds.lower;
    const value =
      parsed.type === "reference"
        ? (evaluateWithin(parsed.expression, context, room) ?? null)
        : renderTemplate(parsed.parts, context, room);
    if (value === TOO_LARGE) throw tooLarge(reference, maxBytes);
    // the parameters' root is level 1: a value at a location of n segments reaches level n + its height
    const height = addJsonBounds(value, bounds);
    if (reference.location.length + height > MAX_VALUE_DEPTH) throw tooDeep(reference, height);
    if (bounds.lower > maxBytes) throw tooLarge(reference, maxBytes);
    setAt(root, reference.location, value);
    if (exact === undefined) {
      if (bounds.upper <= maxBytes) continue;
      exact = new ExactSize(call, root);
      exact.addResolved(references, index);
    } else exact.add(value);
    if (exact.bytes > maxBytes) throw tooLarge(reference, maxBytes);
  }
  freezeTree(root);
  return root;
}

/**
 * The exact JSON size of parameters being resolved, once the cheap bounds cannot decide: the literal part
 * (keys, separators, literal values; reference texts not counted) plus the values resolved so far, so it
 * only grows and passes the limit at the reference that makes the parameters too large.
 */
class ExactSize {
  bytes: number;
  /** Sizes of the strings and containers measured, so one large value read many times is walked once. */
  private readonly measured = new Map<JsonValue, number>();

  /** Starts from the literal part of the parameters. */
  constructor(
    call: CompiledCall,
    private readonly root: JsonObject,
  ) {
    let bytes = jsonByteSize(copyTree(call.params));
    for (const reference of call.references)
      if (reference.location.length > 0) bytes -= jsonByteSize(valueAt(call.params, reference.location));
    this.bytes = bytes;
  }

  /** Adds the references resolved so far (`0..last`), read back from the parameters being built. */
  addResolved(references: readonly ParamReference[], last: number): void {
    for (let index = 0; index <= last; index++) {
      const reference = references[index] as ParamReference;
      if (reference.location.length > 0) this.add(valueAt(this.root, reference.location));
    }
  }

  /** Adds a resolved value. */
  add(value: JsonValue): void {
    this.bytes += this.sizeOf(value);
  }

  private sizeOf(value: JsonValue): number {
    if (typeof value !== "object" && typeof value !== "string") return jsonByteSize(value);
    let bytes = this.measured.get(value);
    if (bytes === undefined) {
      bytes = jsonByteSize(value);
      this.measured.set(value, bytes);
    }
    return bytes;
  }
}

/**
 * The refusal of a value that would nest the parameters deeper than `MAX_VALUE_DEPTH`: the call's record
 * could not keep them (decision 0094), so the tool does not run.
 */
function tooDeep(reference: ParamReference, height: number): ObeliskError {
  const segments = reference.location.length;
  return new ObeliskError(
    "OUTPUT_TOO_LARGE",
    `the resolved parameters would nest ${segments + height} levels deep (${height} levels of the value read at ${reference.pointer}), deeper than ${MAX_VALUE_DEPTH} levels, the most a value may nest (MAX_VALUE_DEPTH): the tool was not run`,
    { data: { pointer: reference.pointer, maxDepth: MAX_VALUE_DEPTH } },
  );
}

function tooLarge(reference: ParamReference, maxBytes: number): ObeliskError {
  return new ObeliskError(
    "OUTPUT_TOO_LARGE",
    `the resolved parameters would be larger than ${maxBytes} bytes of JSON (the limit of one value), passed at ${reference.pointer}`,
    { data: { pointer: reference.pointer, maxBytes } },
  );
}
