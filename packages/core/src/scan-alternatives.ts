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
 * `scanOperand` gets `context` as its third argument (no closure per scan). The lists returned are
 * exact-size (a list grown by push keeps room for 17 items, and parsed expressions live as long as a
 * compiled plan); the common one-operand expression allocates no other list.
 */
export function scanAlternatives<T, C>(
  text: string,
  start: number,
  scanOperand: (text: string, offset: number, context: C) => OperandScan<T>,
  context: C,
): AlternativesScan<T> {
  let closed: T[][] | undefined;
  let first: T | undefined;
  let gate: T[] | undefined;
  let count = 0;
  let pos = start;
  for (;;) {
    const operand = scanOperand(text, pos, context);
    if (!operand.ok) return operand;
    if (count === 0) first = operand.value;
    else if (count === 1) gate = [first as T, operand.value];
    else (gate as T[]).push(operand.value);
    count++;
    const end = operand.end;
    let opPos = end;
    while (opPos < text.length && isSpaceCode(text.charCodeAt(opPos))) opPos++;
    const operator = operatorAt(text, opPos);
    if (operator === 0 || operator === OR) {
      const finished = count === 1 ? [first as T] : count === 2 ? (gate as T[]) : (gate as T[]).slice();
      if (operator === 0) return { ok: true, alternatives: withLast(closed, finished), end };
      // pushed, not concatenated: a copy per `||` made K alternatives cost K² (30,000 in one string: 61 s)
      if (closed === undefined) closed = [finished];
      else closed.push(finished);
      first = undefined;
      gate = undefined;
      count = 0;
    }
    pos = opPos + operatorLength(text, opPos);
    while (pos < text.length && isSpaceCode(text.charCodeAt(pos))) pos++;
  }
}

/** The alternatives closed so far and the last one, as an exact-size list (two: a literal; more: one copy). */
function withLast<T>(closed: T[][] | undefined, last: T[]): T[][] {
  if (closed === undefined) return [last];
  if (closed.length === 1) return [closed[0] as T[], last];
  closed.push(last);
  return closed.slice();
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
