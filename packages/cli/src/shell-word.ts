import { displayText } from "./display-text.js";

/**
 * Quotes a command-line word for a POSIX shell when it needs quoting (for the commands the CLI suggests).
 * A word with control characters (a thread id with a newline or an escape sequence) is written `$'…'`, its
 * control characters escaped (`\n`, `\x1b`): bash, zsh and ksh read it back as the same word, and nothing
 * in it reaches the terminal raw.
 */
export function shellWord(word: string): string {
  if (/^[\w@%+=:,./†-]+$/u.test(word)) return word;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: finds the control characters to escape
  if (/[\u0000-\u001f\u007f-\u009f]/.test(word))
    return `$'${displayText(word.replaceAll("\\", "\\\\").replaceAll("'", "\\'"))}'`;
  return `'${word.replaceAll("'", `'\\''`)}'`;
}
