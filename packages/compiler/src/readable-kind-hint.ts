import { didYouMean, type LanguageIssue, parseReference } from "@obelisk/core";
import type { ReferenceParseOptions } from "./collect-references.js";
import { kindAsCallHint } from "./near-reference-hint.js";
import { parseIssueHint } from "./parse-issue-hint.js";
import type { PlanBuilder } from "./plan-builder.js";
import { kindNamesOf } from "./reference-spelling-hint.js";
import { isBuiltInKind } from "./unreadable-reference.js";

/** The path after a kind, as the reference grammar writes it (names, indexes, quoted names), matched where it starts. */
export const PATH_AFTER_KIND =
  /(?:\.[A-Za-z_$][A-Za-z0-9_$-]*|\[(?:0|[1-9][0-9]{0,14})\]|\["(?:[^"\\]|\\.)*"\])*/y;

/**
 * REF_KIND_UNKNOWN's hint when the kind is a call's id or a tool's name (`†fetchUser.name`, decision
 * 0101): how that call's output is read (see `kindAsCallHint`), the path after the kind kept.
 */
function callKindHint(
  builder: PlanBuilder,
  issue: LanguageIssue,
  text: string,
  options: ReferenceParseOptions,
): string | undefined {
  KIND_NAME.lastIndex = issue.offset;
  const kind = KIND_NAME.exec(text)?.[0];
  if (kind === undefined || !options.kinds.has("calls")) return undefined;
  PATH_AFTER_KIND.lastIndex = issue.offset + kind.length;
  const after = PATH_AFTER_KIND.exec(text)?.[0] ?? "";
  const parsed = parseReference(`†calls.${kind}${after}`, options.kinds, options.limits);
  return kindAsCallHint(builder, kind, parsed.ok ? parsed.value.path.slice(1) : []);
}

/** A kind name as the reference grammar reads it (`[A-Za-z_$][A-Za-z0-9_$-]*`), matched where it starts. */
export const KIND_NAME = /[A-Za-z_$][A-Za-z0-9_$-]*/y;

/**
 * The hint of a parse issue in `text`, a string of `parameter`: the parser's, except that REF_KIND_UNKNOWN's
 * nearest kind (or list of kinds) is taken among the kinds the parameter may read when the host scopes some
 * (`context.mayRead`, decision 0082) — the parser names every kind, those no parameter here may read too.
 * A hint the parser marks as naming one kind only (`hintKind`: `†outputs.s` → `†calls.s`) is kept when the
 * parameter may read that kind, whatever its words.
 */
export function readableIssueHint(
  issue: LanguageIssue,
  text: string,
  options: ReferenceParseOptions,
  parameter: string,
): string | undefined {
  const mayRead = options.context?.mayRead;
  const hint = parseIssueHint(issue);
  if (issue.code !== "REF_KIND_UNKNOWN") return hint;
  const asCall =
    options.builder === undefined ? undefined : callKindHint(options.builder, issue, text, options);
  if (asCall !== undefined) return asCall;
  if (mayRead === undefined) return hint;
  const readable = (name: string) => isBuiltInKind(name) || mayRead(name, options.tool, parameter);
  if (issue.hintKind !== undefined && readable(issue.hintKind)) return hint;
  KIND_NAME.lastIndex = issue.offset;
  const kind = KIND_NAME.exec(text)?.[0];
  if (kind === undefined) return hint;
  const names = kindNamesOf(options.kinds).filter(readable);
  return didYouMean(kind, names) ?? `known kinds: ${names.join(", ")}`;
}
