import type { Diagnostic } from "./diagnostic.js";
import { setOwn } from "./json-container.js";
import { pointerFromPath } from "./json-pointer.js";
import type { Limits } from "./limits.js";
import { planDiagnostic } from "./plan-diagnostic.js";

/** At most this many limit diagnostics are reported for one document. */
export const MAX_LIMIT_DIAGNOSTICS = 100;

/** A container to walk; its pointer is built from the parent chain only when a diagnostic needs it. */
interface Frame {
  readonly value: object;
  readonly parent: Frame | undefined;
  readonly key: string | number;
  readonly depth: number;
}

/** The pointer of `key` inside `frame` (the document itself when there is no frame). */
function pointerOf(frame: Frame | undefined, key: string | number): string {
  if (frame === undefined) return "";
  const keys: (string | number)[] = [key];
  for (let at = frame; at?.parent !== undefined; at = at.parent) keys.push(at.key);
  return pointerFromPath(keys.reverse());
}

const STRING_LIMIT_HINT = "shorten it, or raise maxStringLength";
const DEPTH_LIMIT_HINT = "flatten the structure, or raise maxDepth";

/**
 * True for a PLAN_LIMIT of one value (a string or key over `maxStringLength`, nesting over `maxDepth`), which
 * a document can be checked around; false for the limits of the whole document (`maxCalls`, its size).
 */
export function isValueLimitDiagnostic(diagnostic: Diagnostic): boolean {
  return (
    diagnostic.code === "PLAN_LIMIT" &&
    (diagnostic.hint === STRING_LIMIT_HINT || diagnostic.hint === DEPTH_LIMIT_HINT)
  );
}

/** PLAN_LIMIT diagnostic for a string (value or key) longer than the limit. */
export function stringLimitDiagnostic(
  length: number,
  pointer: string,
  limits: Limits,
  isKey: boolean,
): Diagnostic {
  const what = isKey ? "an object key" : "a string";
  return planDiagnostic(
    "PLAN_LIMIT",
    `${what} of ${length} characters is longer than the limit of ${limits.maxStringLength}`,
    pointer,
    STRING_LIMIT_HINT,
  );
}

/** PLAN_LIMIT diagnostic for a container nested deeper than the limit. */
export function depthLimitDiagnostic(pointer: string, limits: Limits): Diagnostic {
  return planDiagnostic(
    "PLAN_LIMIT",
    `the document is nested deeper than the limit of ${limits.maxDepth} levels`,
    pointer,
    DEPTH_LIMIT_HINT,
  );
}

/** The quick check recurses (one frame per level): only up to this `maxDepth`. */
const MAX_QUICK_DEPTH = 1_000;
/** Items (values and members) the current walk may still visit: each one visited costs one. */
let budget = 0;

/** The PLAN_LIMIT of a walk that ran out of items: the document is over `maxDocumentBytes`. */
function sizeLimitDiagnostic(limits: Limits): Diagnostic {
  const message = `the plan is larger than the limit of ${limits.maxDocumentBytes} bytes of JSON`;
  return planDiagnostic("PLAN_LIMIT", message, "", "raise maxDocumentBytes");
}

/**
 * True when a plain recursive walk of the whole tree (shared sub-objects walked each time they are
 * reached) finds nothing over the limits within its budget: then the walk below, which visits a subset
 * of the same places, finds nothing either. It keeps no map of containers and builds no frames, which
 * the walk below does for each container (a plan of 10k calls: 20k frames and map entries, for nothing
 * in the usual case). False when it finds something or runs out of budget (a cycle always ends in a
 * container deeper than `maxDepth`): the walk below then decides.
 */
function withinLimits(value: unknown, depth: number, maxDepth: number, maxStringLength: number): boolean {
  if (--budget < 0) return false;
  if (typeof value === "string") return value.length <= maxStringLength;
  if (typeof value !== "object" || value === null) return true;
  if (depth > maxDepth) return false;
  const next = depth + 1;
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++)
      if (!withinLimits(value[index], next, maxDepth, maxStringLength)) return false;
    return true;
  }
  const record = value as Record<string, unknown>;
  for (const key in record) {
    if (!Object.hasOwn(record, key)) continue;
    if (key.length > maxStringLength || !withinLimits(record[key], next, maxDepth, maxStringLength))
      return false;
  }
  return true;
}

/**
 * Walks an already-parsed value iteratively and reports nesting deeper than `maxDepth`
 * (the root container is depth 1; descent stops there) and strings or keys longer than `maxStringLength`.
 * Shared sub-objects are walked again only when reached deeper; a path longer than the number of distinct
 * containers seen holds a cycle and is not followed, so cycles terminate whatever `maxDepth` is (and are
 * left to the JSON copy, which reports them as such).
 *
 * Each walk is bounded by the items it visits, not the containers: every value and member visited costs
 * one of `maxDocumentBytes` (each takes at least a byte of the document's JSON, a shared sub-object each
 * time it is walked, as the copy counts it), so an array claiming a billion items, or keys without end,
 * costs no more than a document of that size. A walk that runs out stops with the size PLAN_LIMIT.
 */
export function planLimitDiagnostics(value: unknown, limits: Limits): Diagnostic[] {
  const { maxDepth, maxStringLength, maxDocumentBytes } = limits;
  if (maxDepth <= MAX_QUICK_DEPTH) {
    budget = maxDocumentBytes;
    if (withinLimits(value, 1, maxDepth, maxStringLength)) return [];
  }
  budget = maxDocumentBytes;
  const diagnostics: Diagnostic[] = [];
  const deepestSeen = new Map<object, number>();
  const stack: Frame[] = [];
  const visit = (child: unknown, parent: Frame | undefined, key: string | number, depth: number): void => {
    if (typeof child === "string") {
      if (child.length > maxStringLength)
        diagnostics.push(stringLimitDiagnostic(child.length, pointerOf(parent, key), limits, false));
    } else if (typeof child === "object" && child !== null) {
      // More ancestors than distinct containers seen: the path repeats one, a cycle. Not a depth problem
      // (the JSON copy reports the cycle), and with an infinite maxDepth the walk would never end.
      if (depth - 1 > deepestSeen.size) return;
      if (depth > maxDepth) diagnostics.push(depthLimitDiagnostic(pointerOf(parent, key), limits));
      else if ((deepestSeen.get(child) ?? 0) < depth) {
        deepestSeen.set(child, depth);
        stack.push({ value: child, parent, key, depth });
      }
    }
  };
  visit(value, undefined, "", 1);
  while (stack.length > 0 && diagnostics.length < MAX_LIMIT_DIAGNOSTICS) {
    const frame = stack.pop() as Frame;
    const container = frame.value;
    const depth = frame.depth + 1;
    if (Array.isArray(container)) {
      for (let index = 0; index < container.length; index++) {
        if (--budget < 0) return [sizeLimitDiagnostic(limits)];
        visit(container[index], frame, index, depth);
      }
      continue;
    }
    const record = container as Record<string, unknown>;
    for (const key in record) {
      if (!Object.hasOwn(record, key)) continue;
      if (--budget < 0) return [sizeLimitDiagnostic(limits)];
      if (key.length > maxStringLength)
        diagnostics.push(stringLimitDiagnostic(key.length, pointerOf(frame, key), limits, true));
      visit(record[key], frame, key, depth);
    }
  }
  return diagnostics.slice(0, MAX_LIMIT_DIAGNOSTICS);
}

/**
 * The placeholders that stand for values over the per-value limits, so that the rest of a document can be
 * compiled (SPEC §6: every diagnostic at once) while those values are reported as PLAN_LIMIT:
 * - a string longer than `maxStringLength` becomes `""`;
 * - a member whose key is longer than `maxStringLength` is left out (its key is the problem, and a
 *   message naming it would carry it);
 * - a container nested deeper than `maxDepth` becomes `null`.
 * A copy with placeholders is for diagnostics only: it is never hashed, approved, stored or run.
 */
export interface LimitPlaceholders<T> {
  /** The copy: `value` itself when nothing was replaced, else new frozen containers along the replaced paths. */
  readonly value: T;
  /** JSON Pointers of the replaced values (a left-out member: its pointer), in walk order. */
  readonly pointers: readonly string[];
}

/**
 * Replaces every value over the per-value limits of a JSON tree (a frozen JSON copy: finite, no cycles,
 * at most `MAX_VALUE_DEPTH` levels, so the recursion is bounded) by its placeholder
 * ({@link LimitPlaceholders}). Containers without a replacement below them are shared, not copied.
 */
export function withLimitPlaceholders<T>(value: T, limits: Limits): LimitPlaceholders<T> {
  const { maxDepth, maxStringLength } = limits;
  const pointers: string[] = [];
  const path: (string | number)[] = [];
  const replace = (child: unknown, depth: number): unknown => {
    if (typeof child === "string")
      return child.length > maxStringLength ? placeholder("", path, pointers) : child;
    if (typeof child !== "object" || child === null) return child;
    if (depth > maxDepth) return placeholder(null, path, pointers);
    if (Array.isArray(child)) {
      let items: unknown[] | undefined;
      for (let index = 0; index < child.length; index++) {
        path.push(index);
        const item = replace(child[index], depth + 1);
        path.pop();
        if (item !== child[index]) items ??= child.slice();
        if (items !== undefined) items[index] = item;
      }
      return items === undefined ? child : Object.freeze(items);
    }
    let copy: Record<string, unknown> | undefined;
    const record = child as Record<string, unknown>;
    const keys = Object.keys(record);
    for (let at = 0; at < keys.length; at++) {
      const key = keys[at] as string;
      path.push(key);
      const dropped = key.length > maxStringLength;
      const item = dropped ? placeholder(undefined, path, pointers) : replace(record[key], depth + 1);
      path.pop();
      if (copy === undefined && (dropped || item !== record[key])) {
        copy = {};
        for (const before of keys.slice(0, at)) setOwn(copy, before, record[before]);
      }
      if (copy !== undefined && !dropped) setOwn(copy, key, item);
    }
    return copy === undefined ? child : Object.freeze(copy);
  };
  return { value: replace(value, 1) as T, pointers };
}

/** Records the pointer of a replaced value and returns its placeholder. */
function placeholder<P>(value: P, path: readonly (string | number)[], pointers: string[]): P {
  pointers.push(pointerFromPath(path));
  return value;
}

/** True when `pointer` is `base` or a pointer below it. */
export function isAtOrBelow(pointer: string, base: string): boolean {
  return pointer === base || base === "" || pointer.startsWith(`${base}/`);
}
