import type { Diagnostic } from "./diagnostic.js";
import type { Limits } from "./limits.js";
import { planDiagnostic } from "./plan-diagnostic.js";
import { depthLimitDiagnostic } from "./plan-limit-diagnostics.js";
import type { ToJsonValueResult } from "./value-to-json-value.js";

/** The answer of a JSON copy that refused its value: why, and where. */
export type RefusedCopy = Extract<ToJsonValueResult, { ok: false }>;

/**
 * The diagnostic of a plan value its JSON copy refused, made from the copy's answer alone (the value is not
 * read again): over `maxDocumentBytes`, PLAN_LIMIT at the document; an offender below a container nested
 * deeper than `maxDepth` (a value more than `maxDepth` segments down: its ancestors are containers), the
 * depth's PLAN_LIMIT at the first such container, as the limit walk reports it; else JSON_SYNTAX at the
 * offender (a cycle, a class instance, NaN, a getter that throws, nesting past `MAX_VALUE_DEPTH`…).
 */
export function planCopyRefusal(copy: RefusedCopy, limits: Limits): Diagnostic {
  if (copy.code === "OUTPUT_TOO_LARGE") {
    const message = `the plan is larger than the limit of ${limits.maxDocumentBytes} bytes of JSON`;
    return planDiagnostic("PLAN_LIMIT", message, "", "raise maxDocumentBytes");
  }
  const deep = pointerPrefix(copy.pointer, limits.maxDepth);
  return deep === undefined
    ? notJsonDiagnostic(copy.message, copy.pointer)
    : depthLimitDiagnostic(deep, limits);
}

/** The first `segments` segments of a JSON Pointer, or undefined when it has no more than that many. */
function pointerPrefix(pointer: string, segments: number): string | undefined {
  let at = 0;
  for (let count = 0; count <= segments; count++) {
    at = pointer.indexOf("/", at + (count === 0 ? 0 : 1));
    if (at < 0) return undefined;
  }
  return pointer.slice(0, at);
}

/**
 * A plan value that is not plain JSON (a Date or other class instance, a Map, NaN or ±Infinity, a BigInt, a
 * function, a sparse array, a getter that throws, a cycle): refused, since the plan is hashed, approved,
 * stored and run as JSON and such a value would mean something else in each of those.
 */
function notJsonDiagnostic(message: string, pointer: string): Diagnostic {
  return planDiagnostic(
    "JSON_SYNTAX",
    `the plan is not JSON: ${message}`,
    pointer,
    "plans hold only JSON values: plain objects, arrays, strings, finite numbers, booleans and null",
  );
}
