import type { Diagnostic, JsonObject, JsonValue } from "@obelisk/core";
import { appendPointer } from "@obelisk/core";
import type { CallBody } from "./analyze-call.js";
import { makeDiagnostic } from "./make-diagnostic.js";
import type { RegisteredTool } from "./registered-tool.js";
import { type DeclaredTypes, jsonTypeOf, schemaTypes } from "./schema-types.js";

/**
 * Types of the value a call writes to its first alternative: a latent call's `_output`, else the tool's
 * output schema (the engine checks the first alternative's value against it); undefined when unknown.
 * Values of the other alternatives are unknown: a `branch()` value is not checked against the output
 * schema, and the last alternative of two or more may get the error object instead (SPEC §3).
 */
export function firstValueTypes(
  tool: RegisteredTool,
  hasOutput: boolean,
  output: JsonValue | undefined,
  declaredTypes: DeclaredTypes,
): Set<string> | undefined {
  if (tool.latent && hasOutput) return new Set([jsonTypeOf(output)]);
  const schema = tool.storedOutputSchema ?? tool.outputSchema;
  return schema === undefined ? undefined : schemaTypes(schema, schema, declaredTypes);
}

/** The type each method needs its value to be, whatever is at the path (SPEC §3, core's `applyOutput`). */
const NEEDED = { concat: "array", assign: "object" } as const;

/**
 * REF_TYPE_MISMATCH at `/_outputPath` when the value a call writes can never be combined by its
 * `_outputMethod`: `concat` appends the items of an array value, `assign` shallow-merges an object value,
 * and any other value fails the write, whatever the path holds. Conservative: only when the value's types
 * are known (see `firstValueTypes`) and none of them is the one needed. `set`, `push` and `merge` (which
 * sets a missing path to any value) are never reported.
 */
export function checkOutputMethodValue(
  raw: JsonObject,
  callPointer: string,
  tool: RegisteredTool,
  callId: string | undefined,
  { outputPath, meta }: CallBody,
  declaredTypes: DeclaredTypes,
  out: Diagnostic[],
): void {
  const method = meta.outputMethod;
  if (outputPath === undefined || (method !== "concat" && method !== "assign")) return;
  const types = firstValueTypes(tool, meta.hasOutput, meta.output, declaredTypes);
  const needed = NEEDED[method];
  if (types === undefined || types.size === 0 || types.has(needed)) return;
  const source =
    tool.latent && meta.hasOutput ? "its _output is" : `the output schema of "${tool.name}" gives`;
  const where = outputPath.alternatives.length > 1 ? " (the first alternative's value)" : "";
  const message = `${method} needs ${needed === "array" ? "an array" : "an object"} value, but ${source} ${[...types].join(" or ")}${where}`;
  const pointer = raw._outputPath === undefined ? callPointer : appendPointer(callPointer, "_outputPath");
  out.push(makeDiagnostic("REF_TYPE_MISMATCH", message, pointer, { callId, hint: hintOf(method) }));
}

function hintOf(method: "concat" | "assign"): string {
  return method === "concat"
    ? 'use "push" to append one value, or "set" to write it'
    : 'use "set" to write the value, or give assign an object';
}
