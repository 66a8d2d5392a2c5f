import { codePointLength, cutIndex } from "@obelisk/core";

/** Characters kept of a message by default (the rest is counted: `…(+N chars)`). */
export const MESSAGE_CHARS = 300;

/** `text` within `max` code units: whole, or its start (never half a surrogate pair) and `…(+N chars)` (N in characters). */
export function cutMessage(text: string, max: number = MESSAGE_CHARS): string {
  if (text.length <= max) return text;
  const keep = cutIndex(text, max);
  return `${text.slice(0, keep)}…(+${codePointLength(text.slice(keep))} chars)`;
}
