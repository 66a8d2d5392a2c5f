import type { VariableSummary } from "@obelisk/state";
import type { Engine } from "./engine-types.js";

/** Summaries asked for at most, shrinking the budget, until the text fits as JSON (then it is cut). */
const LIST_TRIES = 5;

/** Characters of JSON a string's characters take inside a JSON string (escapes counted). */
const jsonChars = (text: string): number => JSON.stringify(text).length - 2;

/** `text` cut (at a character) so that, as a JSON string, it fits `budget`, ending with `…`. */
function cutToJson(text: string, budget: number): string {
  let used = 1; // the …
  let end = 0;
  for (const character of text) {
    used += jsonChars(character);
    if (used > budget) break;
    end += character.length;
  }
  return `${text.slice(0, end)}…`;
}

/**
 * The summary whose text, as the JSON string the model receives, fits `budget`: the engine's budget counts
 * characters of the text, and escapes (control characters, quotes, backslashes in previews and
 * descriptions) made answers up to 4× the budget. Asks again with a budget shrunk by the measured overrun.
 */
export async function summaryWithin(
  engine: Engine,
  threadId: string,
  args: Record<string, unknown>,
  given: unknown,
): Promise<VariableSummary> {
  // the first ask is the budget as given: the engine refuses a malformed one (USAGE)
  let summary = await engine.summarize(threadId, {
    ...args,
    budgetChars: given as number,
    format: "markdown",
  });
  const budget = given as number;
  let ask = budget;
  for (let tries = 1; ; tries++) {
    const cost = jsonChars(summary.text);
    if (cost <= budget) return summary;
    // escapes differ from entry to entry: what is left is cut rather than asked for again and again
    if (ask === 1 || tries === LIST_TRIES) return { ...summary, text: cutToJson(summary.text, budget) };
    ask = Math.max(1, Math.floor((ask * budget * 0.95) / cost) - 8);
    summary = await engine.summarize(threadId, { ...args, budgetChars: ask, format: "markdown" });
  }
}
