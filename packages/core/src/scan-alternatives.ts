import type { IssueResult } from "./language-issue.js";
import { CHAR, isSpaceCode } from "./name-grammar.js";

/** One operand scanned from a position: its value and where it ends. */
export type OperandScan<T> = { readonly ok: true; readonly value: T; readonly end: number } | IssueResult;

/** `||` alternatives of `&&` operands, and where the expression ends (after its last operand). */
export type AlternativesScan<T> =
  | { readonly ok: true; readonly alternatives: T[][]; readonly end: number }
  | IssueResult;

const OR = 1;
const AND = 2;

/**
 * Scans `operand (op operand)*` where op is `||`/`<|>` (new alternative) or `&&`/`*>` (same alternative),
 * with optional whitespace around operators. Stops after the last operand: `end` excludes trailing space.
 * The lists returned are exact-size copies (lists grown by push keep spare room for 17 items, and parsed
 * expressions live as long as a compiled plan).
 */
export function scanAlternatives<T>(
  text: string,
  start: number,
  scanOperand: (text: string, offset: number) => OperandScan<T>,
): AlternativesScan<T> {
  const alternatives: T[][] = [];
  let current: T[] = [];
  let pos = start;
  for (;;) {
    const operand = scanOperand(text, pos);
    if (!operand.ok) return operand;
    current.push(operand.value);
    const end = operand.end;
    let opPos = end;
    while (opPos < text.length && isSpaceCode(text.charCodeAt(opPos))) opPos++;
    const operator = operatorAt(text, opPos);
    if (operator === 0) {
      alternatives.push(current.slice());
      return { ok: true, alternatives: alternatives.slice(), end };
    }
    if (operator === OR) {
      alternatives.push(current.slice());
      current = [];
    }
    pos = opPos + operatorLength(text, opPos);
    while (pos < text.length && isSpaceCode(text.charCodeAt(pos))) pos++;
  }
}

/** OR, AND, or 0 for the operator at `pos`. */
function operatorAt(text: string, pos: number): number {
  const code = text.charCodeAt(pos);
  const next = text.charCodeAt(pos + 1);
  if (code === CHAR.pipe && next === CHAR.pipe) return OR;
  if (code === CHAR.ampersand && next === CHAR.ampersand) return AND;
  if (code === CHAR.star && next === CHAR.greaterThan) return AND;
  if (code === CHAR.lessThan && next === CHAR.pipe && text.charCodeAt(pos + 2) === CHAR.greaterThan)
    return OR;
  return 0;
}

/** Length of the operator at `pos` (`<|>` is three characters, the others two). */
function operatorLength(text: string, pos: number): number {
  return text.charCodeAt(pos) === CHAR.lessThan ? 3 : 2;
}
