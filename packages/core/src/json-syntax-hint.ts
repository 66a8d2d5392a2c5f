import { jsonTokenHint } from "./json-token-hint.js";
import { isSpaceCode } from "./name-grammar.js";
import { holdsSecondPlan } from "./text-after-plan.js";
import { PLAN_SUBJECT } from "./value-from-tree.js";

/** Where the syntax breaks, and how (jsonc-parser's error name; absent when `JSON.parse` found it). */
export interface SyntaxBreak {
  readonly offset: number;
  readonly length: number;
  readonly error?: string;
}

/** Errors that, at the end of the text, mean it stopped before the JSON did. */
const ENDED_EARLY: ReadonlySet<string> = new Set([
  "ValueExpected",
  "CloseBraceExpected",
  "CloseBracketExpected",
  "PropertyNameExpected",
  "ColonExpected",
  "CommaExpected",
  "UnexpectedEndOfString",
  "UnexpectedEndOfNumber",
]);

/** The last character before `offset` that is not white space, or "". */
function previousNonSpace(text: string, offset: number): string {
  const before = text.slice(0, offset).trimEnd();
  return before.charAt(before.length - 1);
}

/** U+FEFF, which JSON text may not hold between its tokens (a file may begin with one: see readJsonText). */
const BYTE_ORDER_MARK = "\uFEFF";

/** The length of `text` without its trailing JSON whitespace (`trimEnd` would take U+FEFF too). */
function endWithoutJsonSpace(text: string): number {
  let end = text.length;
  while (end > 0 && isSpaceCode(text.charCodeAt(end - 1))) end--;
  return end;
}

/**
 * The hint for text that is not JSON, as specific as its cause is recognisable: a Markdown code fence
 * around it, a comment, a single-quoted string or key, a trailing comma, text cut short, an empty text, a
 * token JSON does not know (`True`, `NaN`, an unquoted key, “ ”, a raw line break: jsonTokenHint); otherwise that the `subject` must be strict JSON.
 */
export function syntaxHint(text: string, at: SyntaxBreak, subject: string): string {
  const strict = `the ${subject} must be strict JSON`;
  const end = endWithoutJsonSpace(text);
  const found = text.charAt(at.offset);
  if (found === BYTE_ORDER_MARK)
    return `remove the byte order mark (U+FEFF) here: JSON allows none inside the ${subject}`;
  if (/^\s$/u.test(found) && !isSpaceCode(found.charCodeAt(0)))
    return `replace the space character U+${found.charCodeAt(0).toString(16).toUpperCase().padStart(4, "0")} here: JSON's whitespace is space, tab, line feed and carriage return`;
  if (/^[ \t]*(```|~~~)/m.test(text))
    return `remove the Markdown code fence (\`\`\`json … \`\`\`) and any text around the JSON: ${strict}, nothing else`;
  if (end === 0) return `the ${subject} is empty: give a JSON value`;
  if (at.error === "InvalidCommentToken" || at.error === "UnexpectedEndOfComment")
    return `${strict} (no comments)`;
  if (at.error === undefined && /^\/[/*]/.test(text.slice(at.offset))) return `${strict} (no comments)`;
  if (found === "'") return `JSON strings and keys take double quotes: write "name", not 'name'`;
  if ((found === "}" || found === "]") && previousNonSpace(text, at.offset) === ",")
    return `remove the comma before this ${found}: JSON allows no trailing comma`;
  const ended = at.error === undefined || ENDED_EARLY.has(at.error);
  if (ended && Math.max(at.offset, at.offset + at.length) >= end)
    return `the ${subject} ends before the JSON does: was it cut short?`;
  return (
    afterValueHint(text, at.offset, subject) ?? jsonTokenHint(text, at.offset) ?? `${strict} (no comments)`
  );
}

/**
 * The hint for text whose syntax breaks at `offset` right after one whole JSON value: a second plan in the
 * text after a plan (found as the plan-text stream finds one) or other text after the value. Undefined
 * when the text before `offset` is no whole value.
 */
function afterValueHint(text: string, offset: number, subject: string): string | undefined {
  const before = text.slice(0, offset);
  if (before.trim() === "") return undefined;
  try {
    JSON.parse(before);
  } catch {
    return undefined;
  }
  if (subject === PLAN_SUBJECT && holdsSecondPlan(text, offset))
    return "the text holds a second plan after the first: send one plan, or merge the calls into one list";
  return `remove the text after the JSON value: the ${subject} must be strict JSON, nothing else`;
}
