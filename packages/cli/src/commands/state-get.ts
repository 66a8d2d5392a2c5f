import { ObeliskError, plural } from "@obelisk/core";
import type { Engine, GetValueResult } from "obelisk";
import { displayBlock, displayText, jsonText } from "../display-text.js";
import type { Output } from "../output.js";
import { threadFlags } from "../what-next.js";
import { type StateOptions, singleRef } from "./state-options.js";

/** `state get --ref`: one stored value, or one page of it; a reference not stored is REF_UNRESOLVED with the nearest names. */
export async function stateGet(engine: Engine, options: StateOptions, output: Output): Promise<void> {
  const ref = singleRef(options);
  const page = {
    ...(options.offset === undefined ? {} : { offset: options.offset }),
    ...(options.limit === undefined ? {} : { limit: options.limit }),
  };
  const result = await engine.get(options.thread, ref, page);
  if (!result.found) {
    // imported here, not at start-up: registering the commands does not load the engine
    const { nearStoredReferences } = await import("obelisk");
    const near = await nearStoredReferences(engine, options.thread, ref);
    // the command that lists the thread, with its --thread and --store: pasted, it reads the same thread
    const summary = `${output.command} state summary ${threadFlags(options.thread, options.store)} lists what the thread holds`;
    throw new ObeliskError(
      "REF_UNRESOLVED",
      `${ref} is not stored on thread ${displayText(options.thread)}`,
      {
        hint:
          near.length === 0
            ? summary
            : `did you mean ${near.map((name) => displayText(name)).join(", ")}? ${summary}`,
      },
    );
  }
  output.json(result);
  if (output.format === "text") printGot(output, ref, result, options.offset);
}

/**
 * Prints a value, or a page of one (`--offset/--limit` on a number, boolean or null is USAGE): a string as
 * its lines, other values as JSON, control characters escaped either way (`--format json` has it exact).
 */
function printGot(
  output: Output,
  ref: string,
  result: GetValueResult & { found: true },
  asked: number | undefined,
): void {
  if ("value" in result) {
    output.line(typeof result.value === "string" ? displayBlock(result.value) : jsonText(result.value));
    return;
  }
  const page = result.items ?? result.entries ?? result.text;
  const unit = result.items !== undefined ? "items" : result.entries !== undefined ? "keys" : "characters";
  if (result.limit === 0) {
    // an --offset past the end is answered at the end (offset = total): say so, not "no items from 10000"
    const one = unit.slice(0, -1);
    const range = result.total === 0 ? "" : ` (--offset 0 to ${result.total - 1})`;
    output.line(
      output.colors.dim(
        result.offset >= result.total
          ? `${ref}: --offset ${asked ?? result.offset} is past the end: it holds ${plural(result.total, one)}${range}`
          : `${ref}: no ${unit} from ${result.offset} (${result.total} in all)`,
      ),
    );
    return;
  }
  output.line(typeof page === "string" ? displayBlock(page) : jsonText(page));
  const last = result.offset + result.limit - 1;
  output.line(output.colors.dim(`${ref}: ${unit} ${result.offset}–${last} of ${result.total}`));
}
