import { codePointSlice } from "@obelisk/core";
import { codePointPage } from "@obelisk/state";
import { type Answer, DAGGER_NOTE_ROOM, GET_ANSWER_CHARS } from "./agent-tools-get-limits.js";
import { noteReferenceRoom, pageNote, pastEndNote } from "./agent-tools-page-note.js";
import { jsonLength } from "./json-length-within.js";

/** One page of a string: characters from `offset`, at most `limit`, within the budget (escapes counted). */
export function stringPage(reference: string, text: string, offset: number, limit: number): Answer {
  const room = GET_ANSWER_CHARS - noteReferenceRoom(reference) - 420 - DAGGER_NOTE_ROOM;
  // the page is cut from the string once (a long string's index is kept: later pages skip the count)
  const { text: wantedText, offset: start, limit: wanted, total } = codePointPage(text, offset, limit);
  let keep = Math.min(wanted, Math.max(0, room));
  let page = keep === wanted ? wantedText : codePointSlice(wantedText, 0, keep);
  for (let size = jsonLength(page); size > room && keep > 0; size = jsonLength(page)) {
    keep = Math.max(0, Math.min(keep - 1, Math.floor((keep * room) / size)));
    page = codePointSlice(page, 0, keep);
  }
  return {
    found: true,
    type: "string",
    offset: start,
    limit: keep,
    total,
    text: page,
    ...pageNote(reference, "characters", start, keep, total, keep < wanted),
    ...pastEndNote("characters", offset, total),
  };
}
