import { DEFAULT_KINDS, type KindTable } from "./kinds.js";
import type { InputExpression, ParseResult, Reference } from "./language-ast.js";
import {
  bracketNameHint,
  describeCharAt,
  type IssueResult,
  issueAt,
  TRAILING_SPACE_HINT,
} from "./language-issue.js";
import { DEFAULT_LIMITS, type Limits } from "./limits.js";
import { isSpaceCode } from "./name-grammar.js";
import { type ReferenceScanOptions, scanReference } from "./reference-scanner.js";
import { type OperandScan, scanAlternatives } from "./scan-alternatives.js";

/** An expression scanned from a position, and where it ends (after its last reference). */
export type ExpressionScan =
  | { readonly ok: true; readonly expression: InputExpression; readonly end: number }
  | IssueResult;

/** Scans `†a && †b || †c` from `start`, stopping after the last reference (used whole and inside `{…}`). */
export function scanExpression(text: string, start: number, options: ReferenceScanOptions): ExpressionScan {
  const scan = scanAlternatives<Reference, ReferenceScanOptions>(text, start, scanOperand, options);
  if (!scan.ok) return scan;
  return { ok: true, expression: { alternatives: scan.alternatives }, end: scan.end };
}

/** One operand of an expression: a reference. */
function scanOperand(text: string, offset: number, options: ReferenceScanOptions): OperandScan<Reference> {
  const reference = scanReference(text, offset, options);
  return reference.ok ? { ok: true, value: reference.reference, end: reference.end } : reference;
}

/**
 * Parses a whole input expression (SPEC §2): `||` alternatives of `&&` gates, `&&` binds tighter,
 * `<|>` / `*>` spellings, whitespace around operators, no parentheses. Never throws.
 */
export function parseExpression(
  text: string,
  kinds: KindTable = DEFAULT_KINDS,
  limits: Pick<Limits, "maxPathDepth"> = DEFAULT_LIMITS,
): ParseResult<InputExpression> {
  const scan = scanExpression(text, 0, { kinds, maxPathDepth: limits.maxPathDepth });
  if (!scan.ok) return scan;
  if (scan.end !== text.length) return unexpectedAfterExpression(text, scan.end);
  return { ok: true, value: scan.expression };
}

/** The issue for text left over after a complete expression: reported at the first non-space character. */
export function unexpectedAfterExpression(text: string, offset: number): IssueResult {
  const hint = 'to mix text and references, wrap each reference in braces: "Hi {†input.name}"';
  let pos = offset;
  while (pos < text.length && isSpaceCode(text.charCodeAt(pos))) pos++;
  if (pos >= text.length)
    return issueAt("REF_SYNTAX", "unexpected whitespace at the end", offset, TRAILING_SPACE_HINT);
  const found = describeCharAt(text, pos);
  return issueAt(
    "REF_SYNTAX",
    `unexpected ${found} after a reference; expected "||" or "&&"`,
    pos,
    bracketNameHint(text, pos) ?? operatorHint(text, pos) ?? hint,
  );
}

/**
 * The hint for JavaScript's `??` after a reference (decision 0097): the language's fallback is `||`, which
 * takes the first operand that is present. Undefined for anything else.
 */
function operatorHint(text: string, pos: number): string | undefined {
  if (!text.startsWith("??", pos)) return undefined;
  return 'write "||" for a fallback (the first operand that exists), not "??": "†input.nick || †input.name"';
}
