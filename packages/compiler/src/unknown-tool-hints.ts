import { didYouMean } from "@obelisk/core";
import type { HintBudget } from "./hint-budget.js";
import type { ToolRegistry } from "./tool-registry.js";

/**
 * Did-you-means a plan's unknown tool names get (TOOL_UNKNOWN) before the rest get the list of known
 * tools: each compares the name with every registered one (up to core's NEAREST_NAMES_WORK), ~2.5 ms among
 * 5,000 tools, so 4,000 unknown names (a 190 KB plan) took 10 s.
 */
export const MAX_TOOL_HINTS = 200;

/**
 * The did-you-mean of each unknown tool name of one plan, within the plan's budget (`settings.toolHints`, of
 * MAX_TOOL_HINTS; a stream refills it per arriving call): a name met again gets the hint found for it, a
 * name past the budget none (the caller lists known tools).
 */
export class UnknownToolHints {
  /** Hints found, by name: at most one budget's worth, so a long stream does not keep every name it met. */
  readonly #found = new Map<string, string | undefined>();

  constructor(
    private readonly registry: ToolRegistry,
    private readonly budget: HintBudget,
  ) {}

  /** `did you mean "x"?` for the nearest registered name, or undefined (none near, or over the budget). */
  hint(name: string): string | undefined {
    if (this.#found.has(name)) return this.#found.get(name);
    if (!this.budget.take()) return undefined;
    const hint = didYouMean(name, this.registry.names);
    if (this.#found.size < this.budget.size) this.#found.set(name, hint);
    return hint;
  }
}
