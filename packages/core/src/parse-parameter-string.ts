import { DEFAULT_KINDS, type KindTable } from "./kinds.js";
import type { InputExpression, ParameterValue, ParseResult } from "./language-ast.js";
import { issueAt } from "./language-issue.js";
import { DEFAULT_LIMITS, type Limits } from "./limits.js";
import { CHAR, isName, isNameCode, isNameStartCode, isSpaceCode } from "./name-grammar.js";
import { parseExpression, scanExpression, unexpectedAfterExpression } from "./parse-expression.js";
import { FORBIDDEN_SEGMENTS } from "./path.js";
import type { ReferenceScanOptions } from "./reference-scanner.js";

/** The legacy whole-value alias of `†calls.<callId>` (SPEC §2 rule 7). */
export const TOOL_OUTPUT_PREFIX = "$tool_output.";

const DAGGER = "†";

/**
 * Expressions of `{†…}` template parts parsed before, by a hash of their text between the braces (each
 * with that text): a plan's templates repeat references (`{†state.step5.text}` in every reader's
 * message), and a parsed expression is immutable, so the templates can share it. Keyed by a number, not
 * by the text: a part's text is a slice of its template, and looking such a string up in a map costs
 * several times more than hashing its characters. Only for one set of kinds and one depth limit.
 */
export type TemplateExpressions = Map<number, TemplatePart[]>;

/** A template part parsed before: its text between the braces and its expression. */
interface TemplatePart {
  readonly text: string;
  readonly expression: InputExpression;
}

/** Hash of `text[from, to)`. */
function hashOf(text: string, from: number, to: number): number {
  let hash = to - from;
  for (let index = from; index < to; index++) hash = (Math.imul(hash, 31) + text.charCodeAt(index)) | 0;
  return hash;
}

/** The expression of the part `text[from, to)` if it was parsed before. */
function knownPart(
  known: TemplateExpressions,
  hash: number,
  text: string,
  from: number,
  to: number,
): InputExpression | undefined {
  const parts = known.get(hash);
  if (parts === undefined) return undefined;
  for (const part of parts)
    if (part.text.length === to - from && text.startsWith(part.text, from)) return part.expression;
  return undefined;
}

/**
 * Parses one string parameter value (SPEC §2 rules 1–4, 7): a whole expression becomes a reference,
 * `††…` an escaped literal, `{†…}` inside a longer string a template, `$tool_output.<id>` an alias of
 * `†calls.<id>`; anything else is a literal (flagged `suspicious` when it contains `†<known kind>.`, as is a
 * template whose literal parts do).
 * Never throws.
 */
export function parseParameterString(
  text: string,
  kinds: KindTable = DEFAULT_KINDS,
  limits: Pick<Limits, "maxPathDepth"> = DEFAULT_LIMITS,
  templateExpressions?: TemplateExpressions,
): ParseResult<ParameterValue> {
  const dagger = text.indexOf(DAGGER);
  if (dagger === -1) {
    if (text.charCodeAt(0) === CHAR.dollar && text.startsWith(TOOL_OUTPUT_PREFIX))
      return parseToolOutput(text);
    return literal(text, false);
  }
  if (dagger === 0) {
    if (text.charCodeAt(1) === CHAR.dagger) return literal(text.slice(1), false);
    const parsed = parseExpression(text, kinds, limits);
    return parsed.ok ? { ok: true, value: { type: "reference", expression: parsed.value } } : parsed;
  }
  return parseTemplate(text, { kinds, maxPathDepth: limits.maxPathDepth }, templateExpressions);
}

/** A literal parse result. */
function literal(value: string, suspicious: boolean): ParseResult<ParameterValue> {
  return { ok: true, value: { type: "literal", value, suspicious } };
}

/** `$tool_output.<callId>`: a reference to `†calls.<callId>` when the rest is a name, else a literal. */
function parseToolOutput(text: string): ParseResult<ParameterValue> {
  const callId = text.slice(TOOL_OUTPUT_PREFIX.length);
  if (!isName(callId)) return literal(text, false);
  if (FORBIDDEN_SEGMENTS.has(callId)) {
    const message = `the path segment "${callId}" is not allowed`;
    return issueAt("REF_FORBIDDEN_SEGMENT", message, TOOL_OUTPUT_PREFIX.length);
  }
  const reference = { kind: "calls", path: [callId], text: `†calls.${callId}` };
  return { ok: true, value: { type: "reference", expression: { alternatives: [[reference]] } } };
}

/** A string with a dagger after its first character: a template when it holds `{†…}`, else a literal. */
function parseTemplate(
  text: string,
  options: ReferenceScanOptions,
  known: TemplateExpressions | undefined,
): ParseResult<ParameterValue> {
  // Parts go to a scratch list first (a template never starts another): only the exact-size list
  // returned is allocated (parsed templates live as long as a compiled plan).
  const parts = PARTS;
  let count = 0;
  let pending = "";
  let suspicious = false;
  let pieceStart = 0;
  for (;;) {
    const open = text.indexOf("{†", pieceStart);
    if (open === -1) break;
    suspicious ||= hasSuspiciousReference(text, pieceStart, open, options.kinds);
    pending += text.slice(pieceStart, open);
    if (text.charCodeAt(open + 2) === CHAR.dagger) {
      pending += "{†";
      pieceStart = open + 3;
      continue;
    }
    // A part whose text up to the first "}" was parsed before, ending at that brace, parses the same
    // (the scan decides from those characters alone): its expression is shared.
    const firstClose = known === undefined ? -1 : text.indexOf("}", open + 2);
    const hash = firstClose === -1 ? 0 : hashOf(text, open + 1, firstClose);
    let expression =
      known === undefined || firstClose === -1
        ? undefined
        : knownPart(known, hash, text, open + 1, firstClose);
    let close = firstClose;
    if (expression === undefined) {
      const scan = scanExpression(text, open + 1, options);
      if (!scan.ok) return scan;
      close = scan.end;
      while (close < text.length && isSpaceCode(text.charCodeAt(close))) close++;
      if (close >= text.length) return issueAt("REF_SYNTAX", 'unclosed "{†": missing "}"', open);
      if (text.charCodeAt(close) !== CHAR.closeBrace) return unexpectedAfterExpression(text, scan.end);
      expression = scan.expression;
      if (known !== undefined && firstClose !== -1 && close === firstClose) {
        const part = { text: text.slice(open + 1, firstClose), expression };
        const parts = known.get(hash);
        if (parts === undefined) known.set(hash, [part]);
        else parts.push(part);
      }
    }
    if (pending !== "") parts[count++] = pending;
    parts[count++] = expression;
    pending = "";
    pieceStart = close + 1;
  }
  suspicious ||= hasSuspiciousReference(text, pieceStart, text.length, options.kinds);
  pending += text.slice(pieceStart);
  if (count === 0) return literal(pending, suspicious);
  if (pending !== "") parts[count++] = pending;
  const result = parts.slice(0, count);
  parts.fill("", 0, count);
  // A literal part holding `†<known kind>.` (an unbraced reference next to a braced one) is flagged too.
  const value: ParameterValue = suspicious
    ? { type: "template", parts: result, suspicious: true }
    : { type: "template", parts: result };
  return { ok: true, value };
}

const PARTS: (string | InputExpression)[] = [];

/** True when `text[from, to)` contains `†<known kind>` followed by `.` or `[`. */
export function hasSuspiciousReference(text: string, from: number, to: number, kinds: KindTable): boolean {
  let dagger = text.indexOf(DAGGER, from);
  while (dagger !== -1 && dagger < to) {
    const kindStart = dagger + 1;
    let pos = kindStart;
    if (isNameStartCode(text.charCodeAt(pos))) {
      pos++;
      while (pos < to && isNameCode(text.charCodeAt(pos))) pos++;
      const next = pos < to ? text.charCodeAt(pos) : -1;
      if ((next === CHAR.dot || next === CHAR.openBracket) && kinds.has(text.slice(kindStart, pos)))
        return true;
    }
    dagger = text.indexOf(DAGGER, kindStart);
  }
  return false;
}
