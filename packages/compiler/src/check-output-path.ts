import type { Diagnostic, JsonValue, KindTable, Limits, OutputPath } from "@obelisk/core";
import { appendPointer, codePointLength, parseOutputPath, sigilLookalikeLength } from "@obelisk/core";
import { makeDiagnostic } from "./make-diagnostic.js";
import { outputPathKindHint, stateTarget } from "./output-path-kind-hint.js";
import { parseIssueHint } from "./parse-issue-hint.js";
import type { PlanBuilder } from "./plan-builder.js";
import type { RegisteredTool } from "./registered-tool.js";

/**
 * True when the tool's `_outputPath` constraint allows the path: every target of every alternative, by its
 * canonical text, satisfies it (checking the whole text would let `†state.user.x && †state.approvals.y`
 * through a pattern like `^†state\.user\.`). A `const` or `enum` constraint may also name the whole
 * canonical text of a path with several targets: an exact match cannot smuggle anything in.
 */
function outputPathAllowed(tool: RegisteredTool, path: OutputPath): boolean {
  const rule = tool.outputPathSchema;
  if (rule !== undefined && (rule.const !== undefined || rule.enum !== undefined)) {
    if (tool.validateOutputPath(path.text).length === 0) return true;
  }
  for (const targets of path.alternatives)
    for (const target of targets) if (tool.validateOutputPath(target.text).length > 0) return false;
  return true;
}

/**
 * The text of the first target at or under `†state.approvals` (SPEC §7: approvals are given by a person,
 * with the variables API; a plan that wrote one would open its own approval gate), or undefined.
 * Targets above it cannot hold one: `†state` alone is no target, and a write to any other path of the state
 * cannot reach `approvals` (decision 0011).
 */
function approvalTarget(path: OutputPath): string | undefined {
  for (const targets of path.alternatives)
    for (const target of targets)
      if (target.kind === "state" && target.path[0] === "approvals") return target.text;
  return undefined;
}

/**
 * Parses and checks a call's `_outputPath` (SPEC §3): OUTPUT_PATH_SYNTAX / OUTPUT_PATH_READONLY /
 * REF_FORBIDDEN_SEGMENT / REF_KIND_UNKNOWN from the parser, OUTPUT_PATH_READONLY for a
 * target under `†state.approvals`, OUTPUT_PATH_NOT_ALLOWED for the tool's
 * constraint, OUTCOME_UNKNOWN for more alternatives than declared outcomes. All at `<callPointer>/_outputPath`.
 */
export function checkOutputPath(
  value: JsonValue,
  callPointer: string,
  tool: RegisteredTool | undefined,
  options: {
    readonly kinds: KindTable;
    readonly limits: Pick<Limits, "maxPathDepth">;
    readonly callId: string | undefined;
    /** The plan's builder: an unknown kind naming a tool or a call gets a `†state` path (error path only). */
    readonly builder?: PlanBuilder | undefined;
  },
  out: Diagnostic[],
): OutputPath | undefined {
  const callId = options.callId;
  if (typeof value !== "string") {
    const pointer = appendPointer(callPointer, "_outputPath");
    const message = '_outputPath must be a string like "†state.result"';
    out.push(
      makeDiagnostic("OUTPUT_PATH_SYNTAX", message, pointer, {
        callId,
        hint: listedTargetsHint(value, tool, options),
      }),
    );
    return undefined;
  }
  const parsed = parseOutputPath(value, options.kinds, options.limits);
  if (!parsed.ok) {
    const { code, message, offset } = parsed.issue;
    const pointer = appendPointer(callPointer, "_outputPath");
    const validates = (text: string) => writes(text, tool, options);
    const hint =
      outputPathKindHint(value, parsed.issue, {
        kinds: options.kinds,
        builder: options.builder,
        validates,
      }) ?? parseIssueHint(parsed.issue);
    out.push(
      makeDiagnostic(
        code,
        `${message} (at character ${codePointLength(value.slice(0, offset)) + 1})`,
        pointer,
        { callId, hint },
      ),
    );
    return undefined;
  }
  const approval = approvalTarget(parsed.value);
  if (approval !== undefined) {
    const message = `${approval} is an approval: a plan cannot write under †state.approvals`;
    const hint =
      "approvals are given by a person (engine.set or `obelisk state set --ref †state.approvals.<name>`), never by the plan";
    out.push(
      makeDiagnostic("OUTPUT_PATH_READONLY", message, appendPointer(callPointer, "_outputPath"), {
        callId,
        hint,
      }),
    );
  }
  if (tool === undefined) return parsed.value;
  if (tool.outputPathSchema !== undefined && !outputPathAllowed(tool, parsed.value)) {
    const rule = tool.outputPathSchema;
    const hint =
      typeof rule.const === "string"
        ? `this tool writes to ${rule.const}`
        : typeof rule.pattern === "string"
          ? `the path must match ${rule.pattern}`
          : undefined;
    out.push(
      makeDiagnostic(
        "OUTPUT_PATH_NOT_ALLOWED",
        `tool "${tool.name}" does not allow _outputPath ${value}`,
        appendPointer(callPointer, "_outputPath"),
        {
          callId,
          hint,
        },
      ),
    );
  }
  const outcomes = tool.outcomes;
  const count = parsed.value.alternatives.length;
  if (outcomes !== undefined && count > outcomes.length) {
    const message = `_outputPath has ${count} alternatives but tool "${tool.name}" declares ${outcomes.length} outcomes`;
    const hint = `outcomes: ${outcomes.join(", ") || "(none)"}`;
    out.push(
      makeDiagnostic("OUTCOME_UNKNOWN", message, appendPointer(callPointer, "_outputPath"), { callId, hint }),
    );
  }
  return parsed.value;
}

/** True when `text` is an `_outputPath` the call may give: it parses, writes no approval, and the tool allows it. */
function writes(
  text: string,
  tool: RegisteredTool | undefined,
  options: { readonly kinds: KindTable; readonly limits: Pick<Limits, "maxPathDepth"> },
): boolean {
  const parsed = parseOutputPath(text, options.kinds, options.limits);
  if (!parsed.ok || approvalTarget(parsed.value) !== undefined) return false;
  if (tool === undefined) return true;
  const outcomes = tool.outcomes;
  if (outcomes !== undefined && parsed.value.alternatives.length > outcomes.length) return false;
  return tool.outputPathSchema === undefined || outputPathAllowed(tool, parsed.value);
}

/**
 * One listed target as a reference: `state.a`, `$state.a` or `$.state.a` gets its dagger (review s40 rev1
 * #6), and a look-alike of the dagger (`‡state.a`, `&dagger;state.a`) is replaced by it, not kept after it
 * (decision 0101).
 */
function asTarget(item: string): string {
  if (item.startsWith("†")) return item;
  const dollar = item.startsWith("$.") ? 2 : item.startsWith("$") ? 1 : 0;
  const from = dollar > 0 ? dollar : sigilLookalikeLength(item, 0);
  return `†${item.slice(from)}`;
}

/**
 * The hint for `_outputPath` given as a list of target strings (decision 0097): one string joining them
 * with `&&`, which writes the output to every target; a target whose kind names a tool or a call is
 * written under `†state` (see `stateTarget`). The joined path is named only when it validates (decision
 * 0101: a hint names a path that compiles). Undefined for any other value.
 */
function listedTargetsHint(
  value: unknown,
  tool: RegisteredTool | undefined,
  options: {
    readonly kinds: KindTable;
    readonly limits: Pick<Limits, "maxPathDepth">;
    readonly builder?: PlanBuilder | undefined;
  },
): string | undefined {
  if (!Array.isArray(value) || value.length === 0 || !value.every((item) => typeof item === "string"))
    return undefined;
  const targets = value.map((item) => underState(asTarget(item), options));
  const joined = targets.length === 1 ? targets[0] : targets.join(" && ");
  const every = value.length > 1 ? ' ("&&" writes the output to every target)' : "";
  if (joined === undefined || !writes(joined, tool, options))
    return value.length > 1
      ? `write one string, not a list: the targets joined with "&&"${every}, each a reference like "†state.result"`
      : 'write one string, not a list: a reference like "†state.result"';
  return `write one string: "_outputPath": ${JSON.stringify(joined)}${every}`;
}

/** `target` with a kind that names a tool or a call rewritten under `†state` (see `stateTarget`). */
function underState(
  target: string,
  options: { readonly kinds: KindTable; readonly builder?: PlanBuilder | undefined },
): string {
  const parsed = parseOutputPath(target, options.kinds);
  if (parsed.ok) return target;
  const fixed = stateTarget(target, parsed.issue, options.kinds, options.builder);
  return fixed === undefined
    ? target
    : `${target.slice(0, fixed.from)}${fixed.target}${target.slice(fixed.to)}`;
}
