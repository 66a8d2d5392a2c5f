/**
 * Text from outside (a tool's error message, often an HTTP body or a child process's stderr; a reason; a
 * thread id) made safe for one line of a terminal: control characters — newlines, tabs, escape sequences
 * that would recolour or move the cursor — are shown escaped (`\n`, `\t`, `\x1b`), so a message stays on
 * its row of the outcome table and cannot drive the terminal.
 */
export function displayText(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: finds the control characters to escape
  return text.replace(/[\u0000-\u001f\u007f-\u009f]/g, (char) => ESCAPES[char] ?? hexEscape(char));
}

const ESCAPES: Readonly<Record<string, string>> = { "\n": "\\n", "\r": "\\r", "\t": "\\t" };

function hexEscape(char: string): string {
  return `\\x${char.charCodeAt(0).toString(16).padStart(2, "0")}`;
}
