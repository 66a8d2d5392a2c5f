import type {
  Diagnostic,
  JsonObject,
  JsonValue,
  KindTable,
  Limits,
  Mutable,
  OutputPath,
  TemplateExpressions,
} from "@obelisk/core";
import { appendPointer, DEFAULT_LIMITS } from "@obelisk/core";
import { type CallMeta, checkCallMeta } from "./call-meta.js";
import { checkAgainstTool } from "./check-against-tool.js";
import { checkMetaLikeParam, checkStrippedParam } from "./check-meta-like-param.js";
import { checkMissingOutputPath } from "./check-missing-output-path.js";
import { checkOutputPath } from "./check-output-path.js";
import { type BareSpelling, collectReferences, type ReferenceParseOptions } from "./collect-references.js";
import type { CompileContext, ParamReference } from "./compiled-plan.js";
import type { HintBudget } from "./hint-budget.js";
import { makeDiagnostic } from "./make-diagnostic.js";
import { type ParsedStrings, rememberOutputTarget } from "./parsed-strings.js";
import type { PlanBuilder } from "./plan-builder.js";
import type { RegisteredTool } from "./registered-tool.js";
import type { SharedLocations } from "./shared-locations.js";
import { ViolationListing } from "./violation-listing.js";

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
  builder?: PlanBuilder,
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
  parseOptions.builder = builder;
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
    parseOptions.builder = undefined;
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
  builder: undefined,
};
