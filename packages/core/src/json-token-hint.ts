/** Words other languages write where JSON has a literal, with JSON's spelling (decision 0097). */
const FOREIGN_LITERALS: ReadonlyMap<string, string> = new Map([
  ["True", "true"],
  ["TRUE", "true"],
  ["False", "false"],
  ["FALSE", "false"],
  ["None", "null"],
  ["Null", "null"],
  ["NULL", "null"],
  ["nil", "null"],
  ["undefined", "null"],
  ["NaN", "null"],
  ["Infinity", "null"],
]);

/** Typographic quotes a model or an editor writes for `"` or `'`. */
const TYPOGRAPHIC_QUOTES = /^[\u201C\u201D\u201E\u201F\u2018\u2019\u201A\u201B\u00AB\u00BB\u2033]/u;

/** The escape for a control character inside a JSON string. */
function escapeOf(code: number): string {
  if (code === 10) return "\\n";
  if (code === 13) return "\\r";
  if (code === 9) return "\\t";
  return `\\u${code.toString(16).padStart(4, "0")}`;
}

/**
 * The first raw control character (U+0000–U+001F) in the string that opens at `offset` (a `"`), before
 * its closing quote; undefined when there is none.
 */
function rawControlIn(text: string, offset: number): number | undefined {
  for (let at = offset + 1; at < text.length; at++) {
    const code = text.charCodeAt(at);
    if (code === 0x22) return undefined;
    if (code === 0x5c) at++;
    else if (code < 0x20) return code;
  }
  return undefined;
}

/**
 * The hint for a token JSON does not know at `offset`, when its cause is recognisable: a literal of
 * another language (`True`, `None`, `NaN`, `undefined`), an unquoted key, a typographic quote, a raw line
 * break or tab inside a string. Undefined otherwise (the caller's generic hint stands).
 */
export function jsonTokenHint(text: string, offset: number): string | undefined {
  const found = text.charAt(offset);
  if (TYPOGRAPHIC_QUOTES.test(found))
    return `replace the typographic quote ${found} with a straight double quote ": JSON strings and keys take "…" only`;
  if (found === '"') {
    const control = rawControlIn(text, offset);
    if (control === undefined) return undefined;
    return `a JSON string may not hold a raw ${control === 10 || control === 13 ? "line break" : control === 9 ? "tab" : "control character"}: write ${escapeOf(control)} inside the quotes instead`;
  }
  const word = /^-?[A-Za-z_$][\w$]*/.exec(text.slice(offset, offset + 64))?.[0];
  if (word === undefined) return undefined;
  const literal = FOREIGN_LITERALS.get(word.replace(/^-/, ""));
  if (literal !== undefined)
    return literal === "null"
      ? `JSON has no ${word}: write null, or leave the key out`
      : `JSON's literals are lower case: write ${literal}, not ${word}`;
  if (!word.startsWith("-") && /^\s*:/.test(text.slice(offset + word.length)))
    return `JSON keys take double quotes: write "${word}":`;
  return undefined;
}
