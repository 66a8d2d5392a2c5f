import { codePointLength } from "@obelisk/core";

/** Characters kept of a message by default (the rest is counted: `…(+N chars)`). */
export const MESSAGE_CHARS = 300;

/** `text` within `max` code units: whole, or its start (never half a surrogate pair) and `…(+N chars)` (N in characters). */
export function cutMessage(text: string, max: number = MESSAGE_CHARS): string {
  if (text.length <= max) return text;
  let keep = max;
  const code = text.charCodeAt(keep - 1);
  if (code >= 0xd800 && code <= 0xdbff) keep--;
  return `${text.slice(0, keep)}…(+${codePointLength(text.slice(keep))} chars)`;
}
