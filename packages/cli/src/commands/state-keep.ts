import { asThreadId, plural } from "@obelisk/core";
import type { Engine } from "obelisk";
import { displayText } from "../display-text.js";
import type { Output } from "../output.js";
import type { StateOptions } from "./state-options.js";

/** `keep --last N`: reports the variables actually kept (fewer than N when the thread holds fewer). */
export async function stateKeep(engine: Engine, options: StateOptions, output: Output): Promise<void> {
  const n = options.last ?? 0;
  const thread = asThreadId(options.thread);
  if ((await engine.store.getThread(thread)) === undefined) {
    output.json({ ok: true, threadId: options.thread, kept: 0 });
    output.line(output.colors.dim(`thread ${displayText(options.thread)} does not exist: nothing to keep`));
    return;
  }
  // counted under the thread's lock by the engine: a run elsewhere cannot skew them
  const { kept, evicted } = await engine.keepLastN(options.thread, n);
  output.json({ ok: true, threadId: options.thread, kept });
  output.line(
    `${output.colors.green("✓")} thread ${displayText(options.thread)}: ${keptText(kept, evicted, n)}`,
  );
}

/** What `keep --last n` did: `kept` variables kept, `evicted` evicted. */
function keptText(kept: number, evicted: number, n: number): string {
  if (kept + evicted === 0) return "holds no variables, nothing to keep";
  if (evicted <= 0) return `kept all ${plural(kept, "variable")}, nothing to evict (--last ${n})`;
  if (kept === 0) return `evicted all ${plural(evicted, "variable")} (--last ${n})`;
  const newest =
    kept === 1 ? "the most recently updated variable" : `the ${kept} most recently updated variables`;
  return `kept ${newest}, evicted ${evicted}`;
}
