/**
 * Characters shown escaped: C0 and C1 controls and DEL (newlines, tabs, the ESC and CSI that start
 * terminal escape sequences), the bidirectional marks, embeddings, overrides and isolates (U+061C, U+200E,
 * U+200F, U+202A–U+202E, U+2066–U+2069: they reorder what is shown, as in "Trojan Source"), the line and
 * paragraph separators U+2028 and U+2029, and the invisible characters that make two keys look alike
 * (U+200B, U+2060–U+2064, U+FEFF, U+FFF9–U+FFFB). The joiners U+200C/U+200D stay: scripts and emoji
 * sequences are written with them.
 */
const UNSAFE =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: finds the control characters to escape
  /[\u0000-\u001f\u007f-\u009f\u061c\u200b\u200e\u200f\u202a-\u202e\u2060-\u2069\u2028\u2029\ufeff\ufff9-\ufffb]/g;

/** As UNSAFE, without the C0 controls JSON.stringify escapes itself (and writes line feeds between members). */
const UNSAFE_IN_JSON =
  /[\u007f-\u009f\u061c\u200b\u200e\u200f\u202a-\u202e\u2060-\u2069\u2028\u2029\ufeff\ufff9-\ufffb]/g;

/** As UNSAFE, but keeping line feeds and tabs: the characters a block of several lines is made of. */
const UNSAFE_IN_BLOCK =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: finds the control characters to escape
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200b\u200e\u200f\u202a-\u202e\u2060-\u2069\u2028\u2029\ufeff\ufff9-\ufffb]/g;

/**
 * Text from outside (a plan's tool names, keys and text, a tool's error message, often an HTTP body or a
 * child process's stderr; a reason; a stored description; a thread id) made safe for one line of a
 * terminal: control characters — newlines, tabs, escape sequences that would recolour or move the cursor,
 * set the window title or write the clipboard — and the characters that reorder or break what is shown
 * (bidi controls, U+2028/U+2029) are shown escaped (`\n`, `\t`, `\x1b`, `\u202e`), so a message stays on its
 * row of the outcome table and cannot drive the terminal or show text other than it holds.
 */
export function displayText(text: string): string {
  return text.replace(UNSAFE, escapeChar);
}

/**
 * As {@link displayText}, for text of several lines printed as a block (a stored string value, the state
 * summary): line feeds and tabs are kept, everything else displayText escapes is escaped.
 */
export function displayBlock(text: string): string {
  return text.replace(UNSAFE_IN_BLOCK, escapeChar);
}

/**
 * A JSON document as the CLI prints it (`--format json`, a value or schema in text): `JSON.stringify` with
 * two-space indentation, with DEL, the C1 controls, the bidi controls and U+2028/U+2029 — which
 * JSON.stringify leaves raw — written `\u…`. The same JSON value, safe on a terminal; these characters
 * occur only inside strings, where the escape means the same character.
 */
export function jsonText(value: unknown): string {
  return (JSON.stringify(value, null, 2) ?? "undefined").replace(UNSAFE_IN_JSON, unicodeEscape);
}

/**
 * A source text made safe to print as {@link displayBlock} makes it (line ends, including `\r`, and tabs
 * kept), with where each of its offsets went: `offsets[i]` is the escaped offset of the original offset `i`
 * (`offsets[text.length]` is the escaped length).
 */
export function displaySource(text: string): { readonly text: string; readonly offsets: Uint32Array } {
  const offsets = new Uint32Array(text.length + 1);
  let escaped = "";
  let from = 0;
  for (const match of text.matchAll(UNSAFE_IN_BLOCK)) {
    const at = match.index;
    if (match[0] === "\r") continue;
    for (let index = from; index < at; index++) offsets[index] = escaped.length + index - from;
    escaped += text.slice(from, at);
    offsets[at] = escaped.length;
    escaped += escapeChar(match[0]);
    from = at + 1;
  }
  for (let index = from; index <= text.length; index++) offsets[index] = escaped.length + index - from;
  return { text: escaped + text.slice(from), offsets };
}

const ESCAPES: Readonly<Record<string, string>> = { "\n": "\\n", "\r": "\\r", "\t": "\\t" };

function escapeChar(char: string): string {
  const named = ESCAPES[char];
  if (named !== undefined) return named;
  const code = char.charCodeAt(0);
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, "0")}` : unicodeEscape(char);
}

function unicodeEscape(char: string): string {
  return `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`;
}
