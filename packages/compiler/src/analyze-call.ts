import type { Diagnostic, JsonObject, JsonValue, KindTable, Limits, OutputPath } from "@obelisk/core";
import { appendPointer, didYouMean } from "@obelisk/core";
import { type CallMeta, checkCallMeta } from "./call-meta.js";
import { checkOutputPath } from "./check-output-path.js";
import { collectReferences } from "./collect-references.js";
import type { ParamReference } from "./compiled-plan.js";
import { makeDiagnostic } from "./make-diagnostic.js";
import type { RegisteredTool } from "./registered-tool.js";
import { literalIssues, outputDiagnostics, paramDiagnostics } from "./schema-issues.js";
import { isPlainObject } from "./to-json-schema.js";
import type { ToolRegistry } from "./tool-registry.js";

/** The head of a call: its object, its tool. */
export interface CallHead {
  readonly raw?: JsonObject;
  readonly tool?: RegisteredTool;
  readonly diagnostics: Diagnostic[];
}

/** Checks that a call is an object with a string `_tool` naming a known tool (CALL_SHAPE, TOOL_UNKNOWN). */
export function readCallHead(value: unknown, pointer: string, registry: ToolRegistry): CallHead {
  if (!isPlainObject(value)) {
    const what = Array.isArray(value) ? "an array" : value === null ? "null" : typeof value;
    return { diagnostics: [makeDiagnostic("CALL_SHAPE", `a call must be an object (got ${what})`, pointer)] };
  }
  const raw = value as JsonObject;
  const name = raw._tool;
  if (typeof name !== "string") {
    const at = name === undefined ? pointer : appendPointer(pointer, "_tool");
    const message = name === undefined ? "the call has no _tool" : "_tool must be a string";
    return {
      raw,
      diagnostics: [makeDiagnostic("CALL_SHAPE", message, at, { hint: 'add "_tool": "<tool name>"' })],
    };
  }
  const tool = registry.get(name);
  if (tool !== undefined) return { raw, tool, diagnostics: [] };
  const hint =
    didYouMean(name, registry.names) ??
    (registry.names.length > 0 ? `known tools: ${registry.names.slice(0, 10).join(", ")}` : undefined);
  const diagnostic = makeDiagnostic(
    "TOOL_UNKNOWN",
    `no tool named "${name}"`,
    appendPointer(pointer, "_tool"),
    { hint },
  );
  return { raw, diagnostics: [diagnostic] };
}

/** Options for analysing a call body. */
export interface AnalyzeOptions {
  readonly kinds: KindTable;
  readonly limits: Limits;
}

/** Everything checked about one call, apart from the plan-wide rules. */
export interface CallBody {
  readonly params: JsonObject;
  readonly references: ParamReference[];
  readonly meta: CallMeta;
  readonly outputPath?: OutputPath;
  readonly diagnostics: Diagnostic[];
}

function splitParams(raw: JsonObject): JsonObject {
  const params: Record<string, JsonValue> = {};
  for (const [key, value] of Object.entries(raw)) if (!key.startsWith("_")) params[key] = value;
  return params;
}

/** Checks meta-properties, parameters, references and the output path of one call (tool may be unknown). */
export function analyzeCallBody(
  raw: JsonObject,
  pointer: string,
  tool: RegisteredTool | undefined,
  callId: string | undefined,
  options: AnalyzeOptions,
): CallBody {
  const diagnostics: Diagnostic[] = [];
  const meta = checkCallMeta(raw, pointer, callId, diagnostics);
  const params = splitParams(raw);
  const parseOptions = { kinds: options.kinds, limits: options.limits, callId };
  const references = collectReferences(params, pointer, parseOptions, diagnostics);
  if (tool !== undefined) checkAgainstTool(tool, raw, params, references, pointer, callId, meta, diagnostics);
  const outputPathValue = raw._outputPath;
  const outputPath =
    outputPathValue === undefined
      ? undefined
      : checkOutputPath(
          outputPathValue,
          appendPointer(pointer, "_outputPath"),
          tool,
          parseOptions,
          diagnostics,
        );
  return { params, references, meta, diagnostics, ...(outputPath === undefined ? {} : { outputPath }) };
}

function checkAgainstTool(
  tool: RegisteredTool,
  raw: JsonObject,
  params: JsonObject,
  references: readonly ParamReference[],
  pointer: string,
  callId: string | undefined,
  meta: CallMeta,
  out: Diagnostic[],
): void {
  const referencePointers = references.map((reference) => reference.pointer.slice(pointer.length));
  const known = isPlainObject(tool.inputSchema.properties) ? Object.keys(tool.inputSchema.properties) : [];
  const issues = literalIssues(
    safeCheck(() => tool.validateInput(params), pointer, callId, out),
    referencePointers,
  );
  out.push(...paramDiagnostics(issues, pointer, known, callId));
  const outputPointer = appendPointer(pointer, "_output");
  if (!tool.latent) {
    if (meta.hasOutput) {
      const hint = "_output is only for latent tools (tools without an implementation)";
      out.push(
        makeDiagnostic(
          "CALL_SHAPE",
          `tool "${tool.name}" computes its value; _output is not allowed`,
          outputPointer,
          { callId, hint },
        ),
      );
    }
    return;
  }
  if (!meta.hasOutput) {
    const message = `tool "${tool.name}" is latent and the call gives no _output: it will be deferred`;
    out.push(
      makeDiagnostic("LATENT_WITHOUT_OUTPUT", message, pointer, { callId, hint: 'add "_output": <value>' }),
    );
    return;
  }
  out.push(
    ...outputDiagnostics(
      safeCheck(() => tool.validateOutput(raw._output), outputPointer, callId, out),
      outputPointer,
      callId,
    ),
  );
}

function safeCheck<T>(
  check: () => readonly T[],
  pointer: string,
  callId: string | undefined,
  out: Diagnostic[],
): readonly T[] {
  try {
    return check();
  } catch (error) {
    out.push(
      makeDiagnostic(
        "PARAM_INVALID",
        `the tool's schema cannot be used: ${(error as Error).message}`,
        pointer,
        { callId },
      ),
    );
    return [];
  }
}
