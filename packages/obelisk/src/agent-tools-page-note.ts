import { plural } from "@obelisk/core";
import { type Answer, GET_ANSWER_CHARS, MAX_NAMED_REFERENCE } from "./agent-tools-get-limits.js";

/**
 * `get_variable({ reference, offset })` as the model would write it, for notes; for a reference longer than
 * MAX_NAMED_REFERENCE, without repeating it (it would take the page's room: a 3,808-character reference left
 * none, and the answer said to read offset 0 again).
 */
const nextCall = (reference: string, offset: number): string =>
  reference.length > MAX_NAMED_REFERENCE
    ? `get_variable with the same reference and "offset":${offset}`
    : `get_variable({"reference":${JSON.stringify(reference)},"offset":${offset}})`;

/** Room a note's repeated reference takes in the budget (escaped once more inside the note's JSON). */
export const noteReferenceRoom = (reference: string): number =>
  reference.length > MAX_NAMED_REFERENCE ? 0 : 2 * reference.length;

/** The page's facts (`offset`, `limit` = how many it holds, `total`) and a note on how to page on. */
export function pageNote(
  reference: string,
  unit: "items" | "keys" | "characters",
  offset: number,
  shown: number,
  total: number,
  cutForBudget: boolean,
): Answer {
  const end = offset + shown;
  if (end >= total) return {};
  // `limit: 0` asks for no page: the facts only (a "next page" at the same offset would loop)
  if (shown === 0 && !cutForBudget)
    return { note: `limit 0 shows no ${unit}: the value has ${total}; give a limit above 0 to read them.` };
  const why = cutForBudget
    ? `cut to stay within ${GET_ANSWER_CHARS} characters`
    : `a page of ${plural(shown, unit.slice(0, -1), unit)}`;
  const span = shown === 0 ? `no ${unit}` : `${unit} ${offset}–${end - 1}`;
  return {
    next: end,
    note: `Showing ${span} of ${total} (${why}). Next page: ${nextCall(reference, end)}; set limit for another page size.`,
  };
}

/**
 * A note for an offset past the end (the page is empty, at the end): the model asked for something that
 * is not there and should know, rather than read an empty page as an empty value.
 */
export function pastEndNote(unit: "items" | "keys" | "characters", asked: number, total: number): Answer {
  if (asked <= total) return {};
  const has =
    total === 0 ? `the value has no ${unit}` : `the value has ${total} ${unit} (offsets 0–${total - 1})`;
  return { note: `offset ${asked} is past the end: ${has}.` };
}
