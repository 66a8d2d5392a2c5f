import type { Diagnostic, JsonObject } from "@obelisk/core";
import { appendPointer } from "@obelisk/core";
import { makeDiagnostic } from "./make-diagnostic.js";
import type { RegisteredTool } from "./registered-tool.js";
import { isPlainObject } from "./to-json-schema.js";
import type { ToolRegistry } from "./tool-registry.js";

/** Checks that a call is an object (CALL_SHAPE); returns it, or undefined. */
export function callObject(value: unknown, pointer: string, out: Diagnostic[]): JsonObject | undefined {
  if (isPlainObject(value)) return value as JsonObject;
  const what = Array.isArray(value) ? "an array" : value === null ? "null" : typeof value;
  out.push(
    makeDiagnostic("CALL_SHAPE", `a call must be an object (got ${what})`, pointer, {
      hint: 'each item of the plan is one call: { "_tool": "<tool name>", <parameters> }',
    }),
  );
  return undefined;
}

/**
 * Checks that a call has a string `_tool` naming a known tool (CALL_SHAPE, TOOL_UNKNOWN, with the call's
 * given `_id` as `callId` when it is a valid one, and `nearTool`'s did-you-mean); returns the tool.
 */
export function callTool(
  raw: JsonObject,
  pointer: string,
  registry: ToolRegistry,
  out: Diagnostic[],
  givenId: string | undefined,
  nearTool: (name: string) => string | undefined,
): RegisteredTool | undefined {
  const name = raw._tool;
  if (typeof name !== "string") {
    const at = name === undefined ? pointer : appendPointer(pointer, "_tool");
    const message = name === undefined ? "the call has no _tool" : "_tool must be a string";
    const hint = name === undefined ? missingToolHint(raw) : 'add "_tool": "<tool name>"';
    out.push(makeDiagnostic("CALL_SHAPE", message, at, { hint }));
    return undefined;
  }
  const tool = registry.get(name);
  if (tool !== undefined) return tool;
  const hint =
    nearTool(name) ??
    (registry.names.length > 0 ? `known tools: ${registry.names.slice(0, 10).join(", ")}` : undefined);
  out.push(
    makeDiagnostic("TOOL_UNKNOWN", `no tool named "${name}"`, appendPointer(pointer, "_tool"), {
      hint,
      callId: givenId,
    }),
  );
  return undefined;
}

/** Keys a model writes for `_tool`: each names the tool when its value is a string. */
const TOOL_KEY_SPELLINGS = ["tool", "Tool", "_Tool", "toolName", "tool_name", "__tool", "$tool"] as const;

/**
 * The hint of a call without `_tool`: for a misspelt key (`"tool": "x"`), the rename; for the OpenAI / Anthropic tool-call form `{ "name": "x",
 * "arguments" | "input" | "parameters": {…} }`, the call spelt as a plan call; else `add "_tool"`.
 */
function missingToolHint(raw: JsonObject): string {
  const spelt = TOOL_KEY_SPELLINGS.find((key) => Object.hasOwn(raw, key) && typeof raw[key] === "string");
  if (spelt !== undefined)
    return `rename "${spelt}" to "_tool": { "_tool": ${JSON.stringify(raw[spelt])}, … } (meta-properties start with "_")`;
  const name = raw.name;
  const args = ["arguments", "input", "parameters", "args"].find((key) => Object.hasOwn(raw, key));
  if (typeof name !== "string" || args === undefined) return 'add "_tool": "<tool name>"';
  return `write { "_tool": ${JSON.stringify(name)}, …its ${args} as keys }: a plan call names its tool in "_tool" and takes its parameters as keys, not "name" and "${args}"`;
}
