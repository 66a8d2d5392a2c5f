import type { DiagnosticCode } from "./diagnostic-codes.js";
import type { LanguageIssue } from "./language-ast.js";

/** A failed parse carrying one issue (shared by every plan-language parser). */
export interface IssueResult {
  readonly ok: false;
  readonly issue: LanguageIssue;
}

/** The hint for whitespace after the last reference of an expression or the last target of an output path. */
export const TRAILING_SPACE_HINT =
  'remove the whitespace at the end: it is allowed only around "||" and "&&"';

/** Builds a failed parse result. */
export function issueAt(code: DiagnosticCode, message: string, offset: number, hint?: string): IssueResult {
  const issue: LanguageIssue =
    hint === undefined ? { code, message, offset } : { code, message, offset, hint };
  return { ok: false, issue };
}

/** Describes the character at `offset` for messages (`end of text` past the end). */
export function describeCharAt(text: string, offset: number): string {
  if (offset >= text.length) return "end of text";
  const codePoint = text.codePointAt(offset) ?? 0;
  return JSON.stringify(String.fromCodePoint(codePoint));
}
