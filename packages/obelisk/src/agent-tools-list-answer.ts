import { ObeliskError } from "@obelisk/core";
import { DEFAULT_SUMMARY_CHARS } from "@obelisk/state";
import { summaryWithin } from "./agent-tools-list.js";
import { MAX_LIST_CHARS, MAX_LIST_REFS } from "./agent-tools-parameters.js";
import { cutMessage } from "./cut-message.js";
import type { Engine } from "./engine-types.js";

/** Characters of JSON `list_variables`' `notFound` takes at most; each reference in it is cut to 200. */
const NOT_FOUND_CHARS = 2_000;
const NOT_FOUND_REFERENCE_CHARS = 200;

/**
 * The references asked for and not stored, within {@link NOT_FOUND_CHARS} (a model asking for 10,000
 * names got every one back); the ones left out are counted in `notFoundOmitted`.
 */
function boundNotFound(references: readonly string[]): {
  notFound: string[];
  notFoundOmitted?: number;
} {
  const notFound: string[] = [];
  let used = 2; // []
  for (const reference of references) {
    const shown = cutMessage(reference, NOT_FOUND_REFERENCE_CHARS);
    used += JSON.stringify(shown).length + 1;
    if (used > NOT_FOUND_CHARS) break;
    notFound.push(shown);
  }
  const left = references.length - notFound.length;
  return left === 0 ? { notFound } : { notFound, notFoundOmitted: left };
}

/**
 * `list_variables`' answer to arguments already read: a budget over {@link MAX_LIST_CHARS} or more than
 * {@link MAX_LIST_REFS} references is refused (USAGE), else the summary within the budget and the
 * references not found, bounded.
 */
export async function listForModel(engine: Engine, threadId: string, args: Record<string, unknown>) {
  const budget = args.budgetChars;
  if (typeof budget === "number" && budget > MAX_LIST_CHARS)
    throw new ObeliskError("USAGE", `budgetChars must be at most ${MAX_LIST_CHARS}, got ${budget}`, {
      hint: "narrow the list with lastN or refs, and read values with get_variable",
    });
  if (Array.isArray(args.refs) && args.refs.length > MAX_LIST_REFS)
    throw new ObeliskError(
      "USAGE",
      `refs takes at most ${MAX_LIST_REFS} references, got ${args.refs.length}`,
      {
        hint: "a summary shows a few dozen entries: ask for fewer, or read a value's keys with get_variable",
      },
    );
  const summary = await summaryWithin(engine, threadId, args, budget ?? DEFAULT_SUMMARY_CHARS);
  return { text: summary.text, omitted: summary.omitted, ...boundNotFound(summary.notFound) };
}
