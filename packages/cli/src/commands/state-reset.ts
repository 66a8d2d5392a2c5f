import { asThreadId } from "@obelisk/core";
import type { Engine } from "obelisk";
import { displayText } from "../display-text.js";
import type { Output } from "../output.js";
import type { StateOptions } from "./state-options.js";

/** `state reset`: the thread's variables, stored outputs and completed calls forgotten; a thread not held is not created. */
export async function stateReset(engine: Engine, options: StateOptions, output: Output): Promise<void> {
  // a thread the store does not hold has nothing to reset: it is not created
  const exists = (await engine.store.getThread(asThreadId(options.thread))) !== undefined;
  if (exists) await engine.reset(options.thread);
  output.json({ ok: true, threadId: options.thread });
  output.line(
    exists
      ? `${output.colors.green("✓")} thread ${displayText(options.thread)} reset`
      : output.colors.dim(`thread ${displayText(options.thread)} does not exist: nothing to reset`),
  );
}
