import type { Diagnostic, JsonValue } from "@obelisk/core";
import type { AgentWarning } from "./agent-tools-types.js";
import { cutMessage } from "./cut-message.js";
import type { EngineDiagnostic } from "./engine-types.js";

/** Characters of JSON the diagnostics of one answer may take (the model fixes the first ones first). */
export const DIAGNOSTICS_CHARS = 12_000;

/** Characters of JSON the warnings of `run_plan`'s answer may take (the run's outcome comes first). */
export const WARNINGS_CHARS = 3_000;

/** Characters kept of a diagnostic's pointer, call id and each related id (a plan's names can be megabytes). */
const NAME_CHARS = 200;
/** Related calls kept per diagnostic. */
const RELATED_ITEMS = 20;

/**
 * A diagnostic as the model gets it: message and hint cut, and so are its pointer, call id and related ids
 * (a 100,000-character parameter name made a 100 KB answer): at most ~5,000 characters each, so the first
 * one always fits the budget.
 */
function boundDiagnostic(diagnostic: EngineDiagnostic): EngineDiagnostic {
  const { callId, hint, related, inputPointer } = diagnostic;
  return {
    ...diagnostic,
    message: cutMessage(diagnostic.message),
    pointer: cutMessage(diagnostic.pointer, NAME_CHARS),
    ...(callId === undefined ? {} : { callId: cutMessage(callId, NAME_CHARS) }),
    ...(inputPointer === undefined ? {} : { inputPointer: cutMessage(inputPointer, NAME_CHARS) }),
    ...(hint === undefined ? {} : { hint: cutMessage(hint) }),
    ...(related === undefined
      ? {}
      : { related: related.slice(0, RELATED_ITEMS).map((id) => cutMessage(id, NAME_CHARS)) }),
  };
}

/**
 * The diagnostics of a plan within {@link DIAGNOSTICS_CHARS}, in document order, each message and hint
 * cut; when some do not fit, `omitted` counts them by code and `note` says how to see them (a plan of 300
 * broken calls answered 41 KB). Nothing is left out when they fit.
 */
export function boundDiagnostics(diagnostics: readonly EngineDiagnostic[]): {
  diagnostics: EngineDiagnostic[];
  omitted?: Record<string, number>;
  note?: string;
} {
  const kept: EngineDiagnostic[] = [];
  let used = 2;
  let at = 0;
  for (; at < diagnostics.length; at++) {
    const bounded = boundDiagnostic(diagnostics[at] as EngineDiagnostic);
    const cost = JSON.stringify(bounded).length + 1;
    if (used + cost > DIAGNOSTICS_CHARS && kept.length > 0) break;
    kept.push(bounded);
    used += cost;
  }
  if (at === diagnostics.length) return { diagnostics: kept };
  const omitted: Record<string, number> = {};
  for (const diagnostic of diagnostics.slice(at))
    omitted[diagnostic.code] = (omitted[diagnostic.code] ?? 0) + 1;
  const left = diagnostics.length - at;
  return {
    diagnostics: kept,
    omitted,
    note: `${left} more diagnostic${left === 1 ? "" : "s"} not shown (counted by code in omitted): fix these, then validate again.`,
  };
}

/** Error data with a plan's diagnostics (PLAN_INVALID) bounded the same way; other data as it is. */
export function boundErrorData(data: unknown): JsonValue {
  if (typeof data !== "object" || data === null || Array.isArray(data)) return (data ?? null) as JsonValue;
  const diagnostics = (data as { diagnostics?: unknown }).diagnostics;
  if (!Array.isArray(diagnostics)) return data as JsonValue;
  const bounded: unknown = {
    ...(data as Record<string, JsonValue>),
    ...boundDiagnostics(diagnostics as EngineDiagnostic[]),
  };
  return bounded as JsonValue;
}

/**
 * The warnings among a run's diagnostics as `run_plan` answers them — `{ code, pointer, message, callId?,
 * hint? }`, cut like `validate_plan`'s — in document order within {@link WARNINGS_CHARS}; the ones left
 * out are counted by code in `warningsOmitted`. Nothing when the plan has no warning.
 */
export function boundWarnings(diagnostics: readonly Diagnostic[]): {
  warnings?: AgentWarning[];
  warningsOmitted?: Record<string, number>;
} {
  const all = diagnostics.filter((diagnostic) => diagnostic.severity === "warning");
  if (all.length === 0) return {};
  const warnings: AgentWarning[] = [];
  let used = 2;
  let at = 0;
  for (; at < all.length; at++) {
    const { code, pointer, message, callId, hint } = boundDiagnostic(all[at] as Diagnostic);
    const warning: AgentWarning = {
      code,
      pointer,
      message,
      ...(callId === undefined ? {} : { callId }),
      ...(hint === undefined ? {} : { hint }),
    };
    const cost = JSON.stringify(warning).length + 1;
    if (used + cost > WARNINGS_CHARS && warnings.length > 0) break;
    warnings.push(warning);
    used += cost;
  }
  if (at === all.length) return { warnings };
  const warningsOmitted: Record<string, number> = {};
  for (const warning of all.slice(at))
    warningsOmitted[warning.code] = (warningsOmitted[warning.code] ?? 0) + 1;
  return { warnings, warningsOmitted };
}
