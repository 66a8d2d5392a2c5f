import { displayText } from "./display-text.js";

/**
 * Quotes a command-line word for a POSIX shell when it needs quoting (for the commands the CLI suggests).
 * A word with control characters (a thread id with a newline or an escape sequence) or bidi controls is
 * written `$'…'`, those escaped as `displayText` shows them (`\n`, `\x1b`, `\u202e`): bash, zsh and ksh read
 * it back as the same word, and nothing in it reaches the terminal raw.
 */
export function shellWord(word: string): string {
  if (/^[\w@%+=:,./†-]+$/u.test(word)) return word;
  if (displayText(word) !== word)
    return `$'${displayText(word.replaceAll("\\", "\\\\").replaceAll("'", "\\'"))}'`;
  return `'${word.replaceAll("'", `'\\''`)}'`;
}
