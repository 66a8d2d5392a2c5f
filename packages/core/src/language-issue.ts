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

/** Characters that end a name written in dot notation (the next segment, an operator, a template's end). */
const NAME_END = /[.[\]|&{}\s]/;

/**
 * The hint for a character outside ASCII in a name written in dot notation (`†state.ünï`, `†state.名前`,
 * a combining accent): such a name is written in brackets, which take any name (`†state["ünï"]`). `offset`
 * is the character; undefined for an ASCII one (a typo, not a name). Built only for the error.
 */
export function bracketNameHint(text: string, offset: number): string | undefined {
  if (offset >= text.length || text.charCodeAt(offset) < 128) return undefined;
  if (DOT_LOOKALIKES.test(text.charAt(offset))) return dotLookalikeHint(text, offset);
  let start = offset;
  while (start > 0 && !NAME_END.test(text.charAt(start - 1))) start--;
  let end = offset + 1;
  while (end < text.length && !NAME_END.test(text.charAt(end))) end++;
  const name = `[${JSON.stringify(text.slice(start, end))}]`;
  // the reference up to the name's ".", with the name in brackets: †state.a.名前 → †state.a["名前"]
  const dagger = text.lastIndexOf("†", start);
  const whole = dagger === -1 || start === 0 ? "" : `: ${text.slice(dagger, start - 1)}${name}`;
  return `a name in dot notation is ASCII letters, digits, _, $ and -: write this one in brackets, ${name}${whole}`;
}

/** Characters that look like the `.` between names: fullwidth, ideographic and halfwidth full stops, a one-dot leader. */
const DOT_LOOKALIKES = /[\uFF0E\u3002\uFF61\u2024]/u;

/**
 * The hint for a full stop look-alike where a `.` separates names (`†input．name`, decision 0097): write
 * `.`, with the reference rewritten so. Built only for the error.
 */
function dotLookalikeHint(text: string, offset: number): string {
  const found = text.charAt(offset);
  const code = found.charCodeAt(0).toString(16).toUpperCase().padStart(4, "0");
  const dagger = text.lastIndexOf("†", offset);
  let end = offset + 1;
  while (end < text.length && (DOT_LOOKALIKES.test(text.charAt(end)) || !NAME_END.test(text.charAt(end))))
    end++;
  if (dagger === -1) return `write "." (U+002E) between names, not "${found}" (U+${code})`;
  // a name outside ASCII goes in brackets once its dot is "." (†state.notes．名前 → †state.notes["名前"]),
  // and a key that holds the look-alike itself is one name in brackets (review s40 rev1 #4)
  const [head = "", ...names] = text
    .slice(dagger, end)
    .replace(new RegExp(DOT_LOOKALIKES.source, "gu"), ".")
    .split(".");
  const written =
    head + names.map((name) => (ASCII.test(name) ? `.${name}` : `[${JSON.stringify(name)}]`)).join("");
  const nameStart = text.lastIndexOf(".", offset) + 1;
  const whole = text.slice(Math.max(nameStart, dagger), end);
  const oneName =
    nameStart > dagger
      ? `; if ${JSON.stringify(whole)} is one key, write it in brackets: ${text.slice(dagger, nameStart - 1)}[${JSON.stringify(whole)}]`
      : "";
  return `write "." (U+002E) between names, not "${found}" (U+${code}): ${written}${oneName}`;
}

/** Text of printable ASCII only (a name dot notation may take, once its dot is "."; others go in brackets). */
const ASCII = /^[ -~]*$/;
