/** Quotes a command-line word for a POSIX shell when it needs quoting (for the commands the CLI suggests). */
export function shellWord(word: string): string {
  return /^[\w@%+=:,./†-]+$/u.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}
