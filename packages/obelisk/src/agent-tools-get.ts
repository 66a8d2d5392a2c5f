import { DEFAULT_KINDS, type JsonValue, ObeliskError, parseReference } from "@obelisk/core";
import { codePointPage, objectKeys } from "@obelisk/state";
import { containerPage } from "./agent-tools-container-page.js";
import { type Answer, DAGGER_NOTE_ROOM, GET_ANSWER_CHARS, GET_LIMITS } from "./agent-tools-get-limits.js";
import { notFoundHint } from "./agent-tools-not-found.js";
import { stringPage } from "./agent-tools-string-page.js";
import type { Engine } from "./engine-types.js";
import { jsonLengthWithin } from "./json-length-within.js";

export { GET_LIMITS } from "./agent-tools-get-limits.js";

/** A value comes whole when its JSON fits the budget with `{"found":true,"value":…}` (and a note) around it. */
const WHOLE_CHARS = GET_ANSWER_CHARS - 40 - DAGGER_NOTE_ROOM;

/** offset / limit: a non-negative integer when given (USAGE otherwise, saying what was given). */
function checkPaging(name: string, value: unknown): void {
  if (value === undefined || (Number.isInteger(value) && (value as number) >= 0)) return;
  const given =
    typeof value === "number"
      ? String(value)
      : typeof value === "string"
        ? `the string ${JSON.stringify(value.slice(0, 40))}`
        : value === null
          ? "null"
          : Array.isArray(value)
            ? "an array"
            : `a ${typeof value}`;
  throw new ObeliskError("USAGE", `${name} must be a non-negative integer, got ${given}`);
}

/**
 * `get_variable`: a stored value as the model may see it. Numbers, booleans and null, and arrays, objects
 * and strings that fit one default page within the budget, come whole (`{ found, value }`); the others
 * come as one page (`items`, `entries` — objects page by keys, in their stored order — or `text`, with
 * `offset`, `limit` = how many shown, `total`, and `next` / `note` saying how to read on). `offset`/`limit`
 * always give a page (USAGE on a number, boolean or null). Every answer stays within {@link GET_ANSWER_CHARS} characters.
 * Nothing stored there: `{ found: false, hint }`, the hint naming the nearest stored names when some are near.
 */
export async function getForModel(
  engine: Engine,
  threadId: string,
  args: Record<string, unknown>,
): Promise<Answer> {
  return withDaggerNote(await answerFor(engine, threadId, args));
}

/**
 * What a model is told when the data it reads holds `†`: stored text is data, but the same text copied
 * into a plan's parameter is a reference or template (`{†state.user.apiKey}` in a search result would be
 * filled in from the thread's state). A tool's output may carry such text on purpose (prompt injection).
 */
const DAGGER_NOTE =
  "It holds † (reference syntax): text copied from it into a plan is read as references; write †† for a literal †.";

/** The answer with DAGGER_NOTE when what it shows (value, items, entries, text, previews) holds a `†`. */
function withDaggerNote(answer: Answer): Answer {
  if (answer.found !== true) return answer;
  const previews = Array.isArray(answer.tooLarge)
    ? answer.tooLarge.map((item) => (item as { preview?: JsonValue }).preview ?? null)
    : undefined;
  const shown = [answer.value, answer.items, answer.entries, answer.text, previews];
  if (!shown.some((part) => part !== undefined && JSON.stringify(part).includes("†"))) return answer;
  const note = typeof answer.note === "string" ? `${answer.note} ${DAGGER_NOTE}` : DAGGER_NOTE;
  return { ...answer, note };
}

async function answerFor(engine: Engine, threadId: string, args: Record<string, unknown>): Promise<Answer> {
  const { offset, limit } = args as { offset?: unknown; limit?: unknown };
  const paged = offset !== undefined || limit !== undefined;
  const reference = args.reference as string;
  checkPaging("offset", offset);
  checkPaging("limit", limit);
  // engine.get checks the reference (REF_*, USAGE); the page is cut here within the budget from the whole
  // value, which the store holds already (no copy)
  const result = await engine.get(threadId, reference);
  // a misspelt name: the nearest stored names, so the model does not guess again
  if (!result.found) return { found: false, hint: await notFoundHint(engine, threadId, reference) };
  const parsed = parseReference(reference, DEFAULT_KINDS, engine.limits);
  if (!parsed.ok) throw new ObeliskError("REF_SYNTAX", `${reference}: ${parsed.issue.message}`);
  const { kind, path } = parsed.value;
  const value = result.value;
  const fitsWhole = (count: number, unit: number): boolean =>
    !paged && count <= unit && jsonLengthWithin(value, WHOLE_CHARS) <= WHOLE_CHARS;
  if (typeof value !== "object" || value === null) {
    if (paged && typeof value !== "string")
      throw new ObeliskError(
        "USAGE",
        `${reference} is ${value === null ? "null" : `a ${typeof value}`}: offset and limit page arrays (items), objects (keys) and strings (characters)`,
        { hint: "read it without offset and limit" },
      );
    if (typeof value !== "string" || fitsWhole(codePointPage(value, 0, 0).total, GET_LIMITS.pageChars))
      return { found: true, value };
    return stringPage(
      reference,
      value,
      (offset as number | undefined) ?? 0,
      (limit as number | undefined) ?? GET_LIMITS.pageChars,
    );
  }
  if (fitsWhole(Array.isArray(value) ? value.length : objectKeys(value).length, GET_LIMITS.pageItems))
    return { found: true, value };
  return containerPage(
    reference,
    kind,
    path,
    value,
    (offset as number | undefined) ?? 0,
    (limit as number | undefined) ?? GET_LIMITS.pageItems,
  );
}
