import type { JsonValue } from "@obelisk/core";
import type { PlanBuilder } from "./plan-builder.js";

type Answer = { readonly value: JsonValue } | undefined;

/** The answers of `context.callOutput` one builder has had, by id (null: unknown). */
const answers = new WeakMap<PlanBuilder, Map<string, { readonly value: JsonValue } | null>>();

/** The host's answer, or undefined when it gave none usable (a throw, anything but `{ value }`). */
function ask(lookup: (id: string) => Answer, id: string): Answer {
  try {
    const answer: unknown = lookup(id);
    if (typeof answer !== "object" || answer === null || !Object.hasOwn(answer, "value")) return undefined;
    const value = (answer as { readonly value: unknown }).value;
    return value === undefined ? undefined : { value: value as JsonValue };
  } catch {
    return undefined;
  }
}

/**
 * The output the thread stores under `†calls.<id>` (SPEC §8), when the context's `callOutput` lookup knows
 * it and `callOutputs` lists the id (an evicted output is not listed: its readers keep REF_EVICTED).
 * Each id is asked once per builder, so every reader of one stored output shares one load.
 */
export function storedCallOutput(builder: PlanBuilder, id: string): Answer {
  const context = builder.settings.context;
  const lookup = context.callOutput;
  if (lookup === undefined || context.callOutputs?.has(id) !== true) return undefined;
  let known = answers.get(builder);
  if (known === undefined) {
    known = new Map();
    answers.set(builder, known);
  }
  const cached = known.get(id);
  if (cached !== undefined) return cached ?? undefined;
  const answer = ask(lookup, id);
  known.set(id, answer ?? null);
  return answer;
}
