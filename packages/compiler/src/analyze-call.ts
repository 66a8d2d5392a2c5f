import type {
  Diagnostic,
  JsonObject,
  JsonValue,
  KindTable,
  Limits,
  Mutable,
  OutputPath,
  PathSegment,
  TemplateExpressions,
} from "@obelisk/core";
import { appendPointer, DEFAULT_LIMITS } from "@obelisk/core";
import { type CallMeta, checkCallMeta } from "./call-meta.js";
import { checkLiteralOutput, type LiteralOutputOptions } from "./check-literal-output.js";
import { checkMetaLikeParam, checkStrippedParam } from "./check-meta-like-param.js";
import { checkMissingOutputPath } from "./check-missing-output-path.js";
import { checkOutputPath } from "./check-output-path.js";
import { checkApprovalParams, checkPlanOverrides } from "./check-tool-guards.js";
import { type BareSpelling, collectReferences, type ReferenceParseOptions } from "./collect-references.js";
import type { CompileContext, ParamReference } from "./compiled-plan.js";
import type { HintBudget } from "./hint-budget.js";
import { makeDiagnostic } from "./make-diagnostic.js";
import { type ParsedStrings, rememberOutputTarget } from "./parsed-strings.js";
import { paramsForSchemaCheck } from "./reference-witnesses.js";
import type { RegisteredTool } from "./registered-tool.js";
import { literalIssues, outputDiagnostics, paramDiagnostics } from "./schema-issues.js";
import { completeCheckOf, type SchemaIssue } from "./schema-validator.js";
import type { SharedLocations } from "./shared-locations.js";
import { isPlainObject } from "./to-json-schema.js";
import type { ToolRegistry } from "./tool-registry.js";
import { ViolationListing } from "./violation-listing.js";

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

/** Options for analysing a call body. */
export interface AnalyzeOptions {
  readonly kinds: KindTable;
  readonly limits: Limits;
  /** Strings parsed by earlier calls of the plan. */
  readonly parsedStrings?: ParsedStrings;
  /** Locations shared by the calls of the plan. */
  readonly sharedLocations?: SharedLocations;
  /** Template parts parsed by earlier calls of the plan. */
  readonly templateExpressions?: TemplateExpressions;
  /** The known context (a bare `input.x` naming data there is flagged REF_SUSPICIOUS). */
  readonly context?: CompileContext;
  /** The plan's own `inputSchema`, if any. */
  readonly planInputSchema?: JsonObject;
  /** Bare `kind.path` literals for the close pass (see `BareSpelling`). */
  readonly bareSpellings?: BareSpelling[];
  /** The plan's budget of listed schema violations (absent: a call's own, `MAX_LISTED_PER_CALL`). */
  readonly violationListing?: ViolationListing;
  /** The plan's budget of did-you-means for parameters a zod object drops (`MAX_STRIPPED_HINTS`). */
  readonly strippedHints: HintBudget;
}

/** Everything checked about one call, apart from the plan-wide rules. */
export interface CallBody {
  readonly params: JsonObject;
  readonly references: ParamReference[];
  readonly meta: CallMeta;
  readonly outputPath: OutputPath | undefined;
}

/**
 * The parameters: every own key not starting with `_`, in key order, except a meta-property's name without
 * its `_` that the tool does not declare and a key a stripping zod object would drop (PARAM_UNKNOWN, see
 * `checkMetaLikeParam` and `checkStrippedParam`; `plan`: the options of the plan, which hold its budget of
 * did-you-means).
 */
function splitParams(
  raw: JsonObject,
  tool: RegisteredTool | undefined,
  pointer: string,
  callId: string | undefined,
  out: Diagnostic[],
  plan: AnalyzeOptions,
): JsonObject {
  const params: Record<string, JsonValue> = {};
  for (const key in raw) {
    if (key.charCodeAt(0) === 0x5f || !Object.hasOwn(raw, key)) continue;
    const value = raw[key] as JsonValue;
    if (checkMetaLikeParam(key, value, tool, pointer, callId, out)) continue;
    if (checkStrippedParam(key, tool, pointer, callId, out, plan.strippedHints)) continue;
    params[key] = value;
  }
  return params;
}

/**
 * Checks meta-properties, parameters, references and the output path of one call (tool may be unknown);
 * diagnostics go to `out`.
 */
export function analyzeCallBody(
  raw: JsonObject,
  pointer: string,
  tool: RegisteredTool | undefined,
  callId: string | undefined,
  options: AnalyzeOptions,
  out: Diagnostic[],
): CallBody {
  const meta = checkCallMeta(raw, pointer, callId, out, options.limits);
  const params = splitParams(raw, tool, pointer, callId, out, options);
  const parseOptions = PARSE_OPTIONS;
  parseOptions.kinds = options.kinds;
  parseOptions.limits = options.limits;
  parseOptions.callId = callId;
  parseOptions.parsedStrings = options.parsedStrings;
  parseOptions.sharedLocations = options.sharedLocations;
  parseOptions.templateExpressions = options.templateExpressions;
  parseOptions.context = options.context;
  parseOptions.planInputSchema = options.planInputSchema;
  parseOptions.bareSpellings = options.bareSpellings;
  parseOptions.tool = tool?.name;
  try {
    const references = collectReferences(params, pointer, parseOptions, out);
    if (tool !== undefined) {
      const listing = options.violationListing ?? new ViolationListing();
      checkAgainstTool(tool, raw, params, references, pointer, parseOptions, meta, listing, out);
    }
    const outputPathValue = raw._outputPath;
    if (outputPathValue === undefined && meta.outputMethod !== "set")
      methodWithoutPath(meta, pointer, callId, out);
    const outputPath =
      outputPathValue === undefined
        ? checkMissingOutputPath(pointer, tool, callId, out)
        : checkOutputPath(outputPathValue, pointer, tool, parseOptions, out);
    if (outputPath !== undefined && options.parsedStrings !== undefined)
      rememberOutputTarget(outputPath, options.parsedStrings, options.templateExpressions);
    return { params, references, meta, outputPath };
  } finally {
    // Nothing of the compile (its parse caches) stays reachable from the module.
    parseOptions.parsedStrings = undefined;
    parseOptions.sharedLocations = undefined;
    parseOptions.templateExpressions = undefined;
    parseOptions.callId = undefined;
    parseOptions.context = undefined;
    parseOptions.planInputSchema = undefined;
    parseOptions.bareSpellings = undefined;
  }
}

/**
 * OUTPUT_METHOD_INVALID for an accumulating `_outputMethod` on a call without `_outputPath`: its output is
 * stored under `†calls.<id>`, replacing what was there (SPEC §3), so `push`/`concat`/`merge`/`assign`
 * would silently do nothing. `set` (what happens anyway) is accepted.
 */
function methodWithoutPath(
  meta: CallMeta,
  pointer: string,
  callId: string | undefined,
  out: Diagnostic[],
): void {
  const message = `_outputMethod "${meta.outputMethod}" needs an _outputPath`;
  const hint =
    'without _outputPath the output is stored under †calls.<id> and replaces it; add an _outputPath such as "†state.items", or remove _outputMethod';
  out.push(
    makeDiagnostic("OUTPUT_METHOD_INVALID", message, appendPointer(pointer, "_outputMethod"), {
      callId,
      hint,
    }),
  );
}

/**
 * The parse options of the call being analysed: one object, filled in for each call (it was a new one per
 * call, ~80 bytes of garbage each). Neither pass keeps it.
 */
const PARSE_OPTIONS: Mutable<ReferenceParseOptions> = {
  kinds: new Map(),
  limits: DEFAULT_LIMITS,
  callId: undefined,
  parsedStrings: undefined,
  sharedLocations: undefined,
  templateExpressions: undefined,
  context: undefined,
  planInputSchema: undefined,
  bareSpellings: undefined,
  tool: undefined,
};

function checkAgainstTool(
  tool: RegisteredTool,
  raw: JsonObject,
  params: JsonObject,
  references: readonly ParamReference[],
  pointer: string,
  literalOptions: LiteralOutputOptions,
  meta: CallMeta,
  listing: ViolationListing,
  out: Diagnostic[],
): void {
  const callId = literalOptions.callId;
  if (tool.approvalParams.length > 0) checkApprovalParams(tool, params, references, pointer, callId, out);
  if (!tool.idempotent) checkPlanOverrides(tool, meta, pointer, callId, out);
  const checked = checkInput(
    tool,
    paramsForSchemaCheck(tool.inputSchema, params, references),
    pointer,
    callId,
    out,
  );
  if (checked.length > 0 && (completeCheckOf(checked) !== undefined || !allAtReferences(checked, references)))
    listParamViolations(tool, checked, references, pointer, callId, listing, out);
  if (!tool.latent) {
    if (meta.hasOutput) {
      const outputPointer = appendPointer(pointer, "_output");
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
  const outputPointer = appendPointer(pointer, "_output");
  checkLiteralOutput(raw._output as JsonValue, outputPointer, literalOptions, out);
  const issues = safeCheck(() => tool.validateOutput(raw._output), outputPointer, callId, out);
  const completeOutput = completeCheckOf(issues);
  const listed =
    outputDiagnostics(issues, outputPointer, callId, listing, tool.name, completeOutput !== undefined) ??
    outputDiagnostics(
      safeCheck(completeOutput ?? (() => []), outputPointer, callId, out),
      outputPointer,
      callId,
      listing,
      tool.name,
    );
  for (const diagnostic of listed ?? []) out.push(diagnostic);
}

/**
 * The diagnostics of a call's parameter issues (see `paramDiagnostics`). The first issues of a check that
 * stopped, when they cannot fill the listing, give way to a complete check's (decision 0085). Its own
 * function: a closure in `checkAgainstTool` would cost every call a context.
 */
function listParamViolations(
  tool: RegisteredTool,
  checked: readonly SchemaIssue[],
  references: readonly ParamReference[],
  pointer: string,
  callId: string | undefined,
  listing: ViolationListing,
  out: Diagnostic[],
): void {
  const referencePointers = references.map((reference) => reference.pointer.slice(pointer.length));
  const schema = tool.paramsSchema ?? tool.inputSchema;
  const diagnostics = (issues: readonly SchemaIssue[], stopped: boolean): Diagnostic[] | undefined =>
    paramDiagnostics(
      literalIssues(issues, referencePointers),
      pointer,
      schema,
      callId,
      listing,
      tool.name,
      stopped,
    );
  const complete = completeCheckOf(checked);
  const listed =
    diagnostics(checked, complete !== undefined) ??
    diagnostics(safeCheck(complete ?? (() => []), pointer, callId, out), false);
  for (const diagnostic of listed ?? []) out.push(diagnostic);
}

/** `tool.validateInput(params)`, or a PARAM_INVALID diagnostic when the schema cannot be used (no closure per call). */
function checkInput(
  tool: RegisteredTool,
  params: JsonObject,
  pointer: string,
  callId: string | undefined,
  out: Diagnostic[],
): readonly SchemaIssue[] {
  try {
    return tool.validateInput(params);
  } catch (error) {
    out.push(unusableSchema(error, pointer, callId));
    return [];
  }
}

/**
 * True when `pointer` is the JSON Pointer of `location` (`/inputs/0` for `["inputs", 0]`), compared in
 * place: no pointer string is built, and the reference's own pointer (a concatenation) is not flattened.
 */
function pointsAt(pointer: string, location: readonly PathSegment[]): boolean {
  let at = 0;
  for (const segment of location) {
    if (pointer.charCodeAt(at) !== 0x2f) return false;
    at++;
    const token = typeof segment === "number" ? String(segment) : segment;
    for (let i = 0; i < token.length; i++) {
      const code = token.charCodeAt(i);
      if (code === 0x7e || code === 0x2f) {
        // `~` is written `~0`, `/` is written `~1`.
        if (pointer.charCodeAt(at) !== 0x7e || pointer.charCodeAt(at + 1) !== (code === 0x7e ? 0x30 : 0x31))
          return false;
        at += 2;
      } else if (pointer.charCodeAt(at++) !== code) return false;
    }
  }
  return at === pointer.length;
}

/**
 * True when every issue sits exactly at a reference string (a reference where the schema wants a number,
 * the common case): `literalIssues` drops all of them, so the check ends without building its lists.
 */
function allAtReferences(issues: readonly SchemaIssue[], references: readonly ParamReference[]): boolean {
  // Issues come in document order, like the references: each is looked for from the reference after the
  // previous one's, among a few (linear however many references; a miss leaves it to literalIssues).
  const tries = Math.min(references.length, 4);
  let next = 0;
  for (const issue of issues) {
    const at = issue.instancePath;
    let found = false;
    for (let k = 0; k < tries && !found; k++) {
      const candidate = references[(next + k) % references.length] as ParamReference;
      if (pointsAt(at, candidate.location)) {
        found = true;
        next = (next + k + 1) % references.length;
      }
    }
    if (!found) return false;
  }
  return true;
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
    out.push(unusableSchema(error, pointer, callId));
    return [];
  }
}

/** PARAM_INVALID for a tool schema that could not be compiled or run. */
function unusableSchema(error: unknown, pointer: string, callId: string | undefined): Diagnostic {
  const message = `the tool's schema cannot be used: ${(error as Error).message}`;
  return makeDiagnostic("PARAM_INVALID", message, pointer, { callId });
}
