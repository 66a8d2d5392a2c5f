import type { KindTable, LanguageIssue } from "@obelisk/core";
import type { PlanBuilder } from "./plan-builder.js";
import { KIND_NAME, PATH_AFTER_KIND } from "./readable-kind-hint.js";

/** What the compiler knows when an `_outputPath`'s kind is unknown. */
export interface OutputPathKindContext {
  readonly kinds: KindTable;
  /** The plan's builder (its tools, calls and the thread's stored call outputs); absent outside a compile. */
  readonly builder?: PlanBuilder | undefined;
  /** True when `text` is an `_outputPath` this call may give (it parses, and the tool and SPEC allow it). */
  readonly validates: (text: string) => boolean;
}

/** One target of an `_outputPath` rewritten under `†state`: `value[from, to)` becomes `target`. */
interface StateTarget {
  /** What the kind was (`"fetchUser" is a tool name, not a kind`). */
  readonly what: string;
  readonly target: string;
  readonly from: number;
  readonly to: number;
}

/**
 * The target whose kind the parse found unknown (`issue`), rewritten under `†state` when that kind is a
 * registered tool's name, a call's id (added before, or stored) or a name models use for a call's output
 * (`†fetchUser.profile` → `†state.profile`, `†u.profile`, `†outputs.u` → `†state.u`): a name after the
 * kind goes on under `†state`; nothing or an index, under the kind's own name (`†fetchUser[0]` →
 * `†state.fetchUser[0]`). Undefined for any other kind, or when the state is not writable.
 */
export function stateTarget(
  value: string,
  issue: LanguageIssue,
  kinds: KindTable,
  builder: PlanBuilder | undefined,
): StateTarget | undefined {
  if (issue.code !== "REF_KIND_UNKNOWN" || kinds.get("state")?.writable !== true) return undefined;
  KIND_NAME.lastIndex = issue.offset;
  const kind = KIND_NAME.exec(value)?.[0];
  if (kind === undefined) return undefined;
  const what = kindIs(kind, issue, builder);
  if (what === undefined) return undefined;
  PATH_AFTER_KIND.lastIndex = issue.offset + kind.length;
  const after = PATH_AFTER_KIND.exec(value)?.[0] ?? "";
  const named = after.startsWith(".") || after.startsWith('["');
  const target = named ? `†state${after}` : `†state.${kind}${after}`;
  return { what, target, from: issue.offset - 1, to: issue.offset + kind.length + after.length };
}

/**
 * REF_KIND_UNKNOWN's hint in an `_outputPath` whose kind names a tool, a call or a call's output (see
 * `stateTarget`): an output path writes only to the state, so the hint gives the `_outputPath` with that
 * target under `†state`, and how another call then reads it. Given only when the target validates (the
 * whole path too, else only the target is named); undefined otherwise (the parser's hint stays). Error
 * path only.
 */
export function outputPathKindHint(
  value: string,
  issue: LanguageIssue,
  context: OutputPathKindContext,
): string | undefined {
  const fixed = stateTarget(value, issue, context.kinds, context.builder);
  if (fixed === undefined || !context.validates(fixed.target)) return undefined;
  const whole = `${value.slice(0, fixed.from)}${fixed.target}${value.slice(fixed.to)}`;
  const write = context.validates(whole)
    ? `write "_outputPath": ${JSON.stringify(whole)}`
    : `write that target as ${JSON.stringify(fixed.target)}`;
  return `${fixed.what}, and an _outputPath writes to the state: ${write}; another call reads it as ${fixed.target}`;
}

/** What `kind` is when it names a tool, a call or a call's output; undefined for any other name. */
function kindIs(kind: string, issue: LanguageIssue, builder: PlanBuilder | undefined): string | undefined {
  if (issue.hintKind === "calls") return `"${kind}" is no kind (a call's output is read as †calls.<id>)`;
  if (builder === undefined) return undefined;
  if (builder.registry.get(kind) !== undefined) return `"${kind}" is a tool name, not a kind`;
  if (builder.entries.has(kind) || builder.settings.context.callOutputs?.has(kind) === true)
    return `"${kind}" is a call's id, not a kind`;
  return undefined;
}
