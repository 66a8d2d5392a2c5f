import type { CompiledPlan } from "@obelisk/compiler";
import { didYouMean, ObeliskError } from "@obelisk/core";
import { describeValue } from "./describe-value.js";
import type { RunOptions } from "./engine-types.js";

/** Most of the plan's call ids (and of the unknown ones) an unknown-id error lists. */
const LISTED_IDS = 10;

/** Characters of an id an error shows (a 100,000-character id made a 100 KB message). */
const SHOWN_ID_CHARS = 60;

/** An id as an error shows it: quoted, cut to {@link SHOWN_ID_CHARS} with its length when longer. */
const shownId = (id: string): string =>
  id.length <= SHOWN_ID_CHARS
    ? JSON.stringify(id)
    : `${JSON.stringify(id.slice(0, SHOWN_ID_CHARS))}… (${id.length} characters)`;

/**
 * Checks a run's `rerun` option as given (USAGE otherwise): `true` or `false`, or an array of call ids
 * (non-empty strings).
 */
export function checkRerunOption(rerun: unknown): void {
  if (rerun === undefined || typeof rerun === "boolean") return;
  if (Array.isArray(rerun)) {
    const at = rerun.findIndex((id) => typeof id !== "string" || id.length === 0);
    if (at === -1) return;
    throw new ObeliskError(
      "USAGE",
      `rerun[${at}] must be a call id (a non-empty string), not ${describeValue(rerun[at])}`,
      { hint: 'name calls by their _id: rerun: ["price"] for the call with "_id": "price"' },
    );
  }
  throw new ObeliskError(
    "USAGE",
    `rerun must be true (every call) or an array of call ids, not ${describeValue(rerun)}`,
    { hint: 'e.g. rerun: true, or rerun: ["price"] for the call with "_id": "price"' },
  );
}

/** The runner's `rerun` for a run's option: `true`, the named ids as a set, or nothing. */
export function runnerRerun(rerun: RunOptions["rerun"]): { rerun?: true | ReadonlySet<string> } {
  if (rerun === true) return { rerun: true };
  return Array.isArray(rerun) && rerun.length > 0 ? { rerun: new Set(rerun) } : {};
}

/**
 * USAGE when `rerun` names a call the compiled plan does not have (a typo, or an automatic id of an earlier
 * run: calls without `_id` are numbered anew on each run), before anything is recorded: the hint names the
 * nearest id, or lists the plan's.
 */
export function checkRerunIds(rerun: RunOptions["rerun"], compiled: CompiledPlan): void {
  if (!Array.isArray(rerun) || rerun.length === 0) return;
  const ids = compiled.calls.map((call) => call.id);
  const known = new Set(ids);
  const unknown = rerun.filter((id) => !known.has(id));
  if (unknown.length === 0) return;
  const first = unknown[0] as string;
  const listed = ids.slice(0, LISTED_IDS).map((id) => JSON.stringify(id));
  const more = ids.length > LISTED_IDS ? `, … (${ids.length} calls)` : "";
  const plans =
    ids.length === 0 ? "the plan has no calls" : `the plan's calls are ${listed.join(", ")}${more}`;
  const numbered = unknown.some((id) => id.includes("$"))
    ? "; calls without _id are numbered anew on each run: give the call an _id, or rerun every call"
    : "";
  throw new ObeliskError(
    "USAGE",
    `rerun names ${unknown.length === 1 ? "a call" : "calls"} the plan does not have: ${unknown.slice(0, LISTED_IDS).map(shownId).join(", ")}${unknown.length > LISTED_IDS ? `, … (${unknown.length})` : ""}`,
    { hint: `${didYouMean(first, known) ?? plans}${numbered}`, data: { unknown } },
  );
}
