import type { JsonValue } from "@obelisk/core";

/**
 * Bounds of what `get_variable` answers (SPEC §9: what the model sees is bounded). Every answer is at most
 * {@link GET_ANSWER_CHARS} characters of JSON (plus the reference the model gave, when a note repeats it).
 */
export const GET_LIMITS = Object.freeze({
  /** Hard budget of one answer, in characters of its JSON. */
  answerChars: 8_000,
  /** Items (arrays) or keys (objects) of a page when `limit` is not given. */
  pageItems: 50,
  /** Characters of a string page when `limit` is not given. */
  pageChars: 4_000,
  /** An object page lists a value over this many characters of JSON in `tooLarge` instead. */
  itemChars: 2_000,
  /** Characters of the preview of one item too large to show in a page. */
  previewChars: 200,
});
/** Hard budget of one answer, in characters of its JSON (`GET_LIMITS.answerChars`). */
export const GET_ANSWER_CHARS = GET_LIMITS.answerChars;
/** Room kept in every answer for DAGGER_NOTE (with its field name and separator). */
export const DAGGER_NOTE_ROOM = 140;
/** Longest item reference an answer names (a longer key cannot be named within the budget). */
export const MAX_NAMED_REFERENCE = 1_000;

/** What the model sees: the whole value, one page, or not found (errors come back as data). */
export type Answer = Record<string, JsonValue>;
