import type { Diagnostic } from "./diagnostic.js";
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
    "shorten it, or raise maxStringLength",
  );
}

/** PLAN_LIMIT diagnostic for a container nested deeper than the limit. */
export function depthLimitDiagnostic(pointer: string, limits: Limits): Diagnostic {
  return planDiagnostic(
    "PLAN_LIMIT",
    `the document is nested deeper than the limit of ${limits.maxDepth} levels`,
    pointer,
    "flatten the structure, or raise maxDepth",
  );
}

/** The quick check recurses (one frame per level): only up to this `maxDepth`. */
const MAX_QUICK_DEPTH = 1_000;
/** Containers the quick check visits at most (shared sub-objects count each time they are reached). */
const QUICK_BUDGET = 4_000_000;
let quickBudget = 0;

/**
 * True when a plain recursive walk of the whole tree (shared sub-objects walked each time they are
 * reached) finds nothing over the limits within its budget: then the walk below, which visits a subset
 * of the same places, finds nothing either. It keeps no map of containers and builds no frames, which
 * the walk below does for each container (a plan of 10k calls: 20k frames and map entries, for nothing
 * in the usual case). False when it finds something or runs out of budget (a cycle always ends in a
 * container deeper than `maxDepth`): the walk below then decides.
 */
function withinLimits(value: unknown, depth: number, maxDepth: number, maxStringLength: number): boolean {
  if (typeof value === "string") return value.length <= maxStringLength;
  if (typeof value !== "object" || value === null) return true;
  if (depth > maxDepth || --quickBudget < 0) return false;
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
 */
export function planLimitDiagnostics(value: unknown, limits: Limits): Diagnostic[] {
  if (limits.maxDepth <= MAX_QUICK_DEPTH) {
    quickBudget = QUICK_BUDGET;
    if (withinLimits(value, 1, limits.maxDepth, limits.maxStringLength)) return [];
  }
  const diagnostics: Diagnostic[] = [];
  const deepestSeen = new Map<object, number>();
  const stack: Frame[] = [];
  const { maxDepth, maxStringLength } = limits;
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
      for (let index = 0; index < container.length; index++) visit(container[index], frame, index, depth);
      continue;
    }
    const record = container as Record<string, unknown>;
    for (const key in record) {
      if (!Object.hasOwn(record, key)) continue;
      if (key.length > maxStringLength)
        diagnostics.push(stringLimitDiagnostic(key.length, pointerOf(frame, key), limits, true));
      visit(record[key], frame, key, depth);
    }
  }
  return diagnostics.slice(0, MAX_LIMIT_DIAGNOSTICS);
}
