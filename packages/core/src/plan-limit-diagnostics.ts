import type { Diagnostic } from "./diagnostic.js";
import { appendPointer } from "./json-pointer.js";
import type { Limits } from "./limits.js";
import { planDiagnostic } from "./plan-diagnostic.js";

/** At most this many limit diagnostics are reported for one document. */
export const MAX_LIMIT_DIAGNOSTICS = 100;

interface Frame {
  readonly value: object;
  readonly pointer: string;
  readonly depth: number;
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

/**
 * Walks an already-parsed value iteratively and reports nesting deeper than `maxDepth`
 * (the root container is depth 1; descent stops there) and strings or keys longer than `maxStringLength`.
 * Shared sub-objects are walked again only when reached deeper, so cycles and DAGs terminate.
 */
export function planLimitDiagnostics(value: unknown, limits: Limits): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  const deepestSeen = new Map<object, number>();
  const stack: Frame[] = [];
  const visit = (child: unknown, pointer: string, depth: number): void => {
    if (typeof child === "string") {
      if (child.length > limits.maxStringLength) {
        diagnostics.push(stringLimitDiagnostic(child.length, pointer, limits, false));
      }
    } else if (typeof child === "object" && child !== null) {
      if (depth > limits.maxDepth) diagnostics.push(depthLimitDiagnostic(pointer, limits));
      else if ((deepestSeen.get(child) ?? 0) < depth) {
        deepestSeen.set(child, depth);
        stack.push({ value: child, pointer, depth });
      }
    }
  };
  visit(value, "", 1);
  while (stack.length > 0 && diagnostics.length < MAX_LIMIT_DIAGNOSTICS) {
    const frame = stack.pop()!;
    if (Array.isArray(frame.value)) {
      frame.value.forEach((item, index) => {
        visit(item, appendPointer(frame.pointer, index), frame.depth + 1);
      });
      continue;
    }
    for (const [key, item] of Object.entries(frame.value)) {
      const pointer = appendPointer(frame.pointer, key);
      if (key.length > limits.maxStringLength) {
        diagnostics.push(stringLimitDiagnostic(key.length, pointer, limits, true));
      }
      visit(item, pointer, frame.depth + 1);
    }
  }
  return diagnostics.slice(0, MAX_LIMIT_DIAGNOSTICS);
}
