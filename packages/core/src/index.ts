export type { ApplyOutputResult } from "./apply-output.js";
export { applyOutput, indexPastEndMessage } from "./apply-output.js";
export { applyOutputInPlace } from "./apply-output-in-place.js";
export { assertNever } from "./assert-never.js";
export { CALL_ID_PATTERN, isValidCallId } from "./call-id.js";
export { canonicalJson } from "./canonical-json.js";
export type { HookAnswer } from "./checked-hook.js";
export { checkedClock, checkedHook } from "./checked-hook.js";
export { codePointLength, codePointSlice, cutIndex, cutText } from "./code-points.js";
export type { Diagnostic, SourcePosition } from "./diagnostic.js";
export type { DiagnosticCode, ObeliskCode, RuntimeErrorCode, Severity } from "./diagnostic-codes.js";
export { DIAGNOSTIC_CODES, RUNTIME_ERROR_CODES, severityOf } from "./diagnostic-codes.js";
export { didYouMean, nearestNames } from "./did-you-mean.js";
export { ecmaPatternError, withEcmaClasses } from "./ecma-pattern-classes.js";
export { formatExpression } from "./format-expression.js";
export { formatOutputPath } from "./format-output-path.js";
export { formatPath, formatReference } from "./format-path.js";
export type { PathLookup } from "./get-at-path.js";
export { getAtPath, valueAtPath } from "./get-at-path.js";
export { readHostValue } from "./host-read.js";
export type { Brand, CallId, RunId, ThreadId } from "./ids.js";
export { asCallId, asRunId, asThreadId } from "./ids.js";
export { isoTime } from "./iso-time.js";
export { isJsonArray, isJsonObject, setOwn } from "./json-container.js";
export { needsNoJsonEscape } from "./json-plain-string.js";
export type { PointerResolution } from "./json-pointer.js";
export { appendPointer, parsePointer, pointerFromPath, resolvePointer } from "./json-pointer.js";
export type { JsonArray, JsonObject, JsonValue } from "./json-value.js";
export { keepShapes } from "./keep-shapes.js";
export type { KindDeclaration, KindInfo, KindTable } from "./kinds.js";
export { BUILT_IN_KINDS, createKindTable, DEFAULT_KINDS } from "./kinds.js";
export type {
  InputExpression,
  LanguageIssue,
  OutputPath,
  OutputTarget,
  ParameterValue,
  ParseResult,
  Reference,
} from "./language-ast.js";
export type { LimitOverrides, Limits } from "./limits.js";
export { DEFAULT_LIMITS, resolveLimits } from "./limits.js";
export { MAX_TIMER_MS } from "./max-timer-ms.js";
export type { Mutable } from "./mutable.js";
export type { NormalizePlanOptions, NormalizePlanResult } from "./normalize-plan.js";
export { normalizePlan, PLAN_FORMS_HINT, planCallsKey } from "./normalize-plan.js";
export type {
  ObeliskErrorData,
  ObeliskErrorOf,
  StoreErrorData,
  ThreadBusyHolder,
  ThreadBusyNotStarted,
  ThreadBusyStarted,
  UsageData,
} from "./obelisk-error.js";
export { ObeliskError } from "./obelisk-error.js";
export type { OutputMethod, OutputMethodInfo } from "./output-methods.js";
export { DEFAULT_OUTPUT_METHOD, isOutputMethod, OUTPUT_METHODS } from "./output-methods.js";
export { parameterExpressions } from "./parameter-expressions.js";
export { parseExpression } from "./parse-expression.js";
export type { JsonTextResult, ParseJsonTextOptions } from "./parse-json-text.js";
export { parseJsonText } from "./parse-json-text.js";
export { parseOutputPath } from "./parse-output-path.js";
export type { TemplateExpressions } from "./parse-parameter-string.js";
export {
  hasSuspiciousReference,
  parseParameterString,
  TOOL_OUTPUT_PREFIX,
} from "./parse-parameter-string.js";
export type { ParsePlanTextOptions, PlanTextResult } from "./parse-plan-text.js";
export { parsePlanText } from "./parse-plan-text.js";
export { parseReference } from "./parse-reference.js";
export type { Path, PathSegment } from "./path.js";
export { FORBIDDEN_SEGMENTS } from "./path.js";
export { pathsOverlap } from "./paths-overlap.js";
export type { PlanCallSource, PlanDocument, PlanForm, PlanHash } from "./plan-document.js";
export { planHash } from "./plan-hash.js";
export { isAtOrBelow, isValueLimitDiagnostic } from "./plan-limit-diagnostics.js";
export { planNotApproved } from "./plan-not-approved.js";
export type {
  PlanTextAfter,
  PlanTextEnd,
  PlanTextErrorData,
  PlanTextExcerpt,
  PlanTextStream,
  PlanTextStreamOptions,
} from "./plan-text-stream.js";
export { callsFromText, createPlanTextStream } from "./plan-text-stream.js";
export { plural } from "./plural.js";
export type { Colors, RenderDiagnosticsOptions } from "./render-diagnostics.js";
export { NO_COLORS, renderDiagnostics } from "./render-diagnostics.js";
export { sha256Hex } from "./sha256-hex.js";
export { sigilLookalikeLength } from "./sigil-lookalike.js";
export type { SourceMap, SourceSpan } from "./source-map.js";
export { createSourceMap } from "./source-map.js";
export { thrownMessage } from "./thrown-message.js";
export { isUrlFormat, URL_FORMAT_SOURCE } from "./url-format.js";
export { utf8Length } from "./utf8-length.js";
export { deepFreeze, markDeeplyFrozen } from "./value-deep-freeze.js";
export type { ItemCount, ItemUnit } from "./value-item-count.js";
export { itemCount, itemCountOf, itemUnitOf } from "./value-item-count.js";
export { jsonByteSize, jsonByteSizeWithin } from "./value-json-byte-size.js";
export type { JsonType } from "./value-json-type-of.js";
export { jsonTypeOf } from "./value-json-type-of.js";
export type { PreviewOptions, ValuePreview } from "./value-preview.js";
export { DEFAULT_PREVIEW_CHARS, MAX_PREVIEW_DEPTH, previewValue } from "./value-preview.js";
export type { ToJsonValueOptions, ToJsonValueResult } from "./value-to-json-value.js";
export { MAX_VALUE_DEPTH, rememberFrozenCopy, toJsonValue } from "./value-to-json-value.js";
export { WriteJournal } from "./write-journal.js";
