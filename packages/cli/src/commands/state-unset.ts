import { asThreadId, parseReference, plural } from "@obelisk/core";
import type { Engine } from "obelisk";
import { displayText } from "../display-text.js";
import type { Output } from "../output.js";
import { type StateOptions, singleRef } from "./state-options.js";

/** `unset --ref`: removes what the reference holds; a path that holds nothing is no error (nothing to remove). */
export async function stateUnset(engine: Engine, options: StateOptions, output: Output): Promise<void> {
  const ref = singleRef(options);
  const thread = displayText(options.thread);
  // a thread the store does not hold has nothing to remove: not even its lock is taken (the file stays as it was)
  if ((await engine.store.getThread(asThreadId(options.thread))) === undefined) {
    output.json({ ok: true, threadId: options.thread, ref, removed: false, variables: [] });
    output.line(output.colors.dim(`thread ${thread} does not exist: nothing to remove`));
    return;
  }
  const { removed, variables } = await engine.unset(options.thread, ref);
  output.json({ ok: true, threadId: options.thread, ref, removed, variables });
  if (!removed) {
    output.line(output.colors.dim(`${ref} holds nothing on thread ${thread}: nothing to remove`));
    return;
  }
  // at a container only writes below it created, the variables below it went (the container with them)
  const parsed = parseReference(ref);
  const exact = variables.length === 1 && parsed.ok && variables[0] === parsed.value.text;
  const below = exact
    ? ""
    : `: ${plural(variables.length, "variable")} (${displayText(variables.join(", "))})`;
  output.line(`${output.colors.green("✓")} removed ${ref} from thread ${thread}${below}`);
}
