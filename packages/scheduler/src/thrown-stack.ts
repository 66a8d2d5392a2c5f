import { cutText } from "@obelisk/core";
import type { RecordedError } from "@obelisk/state";

/** Most characters of a thrown error's stack kept (a stack is ~10 frames; a tool may set any string). */
const MAX_STACK_CHARS = 8_000;

/** This package's folder as stack frames name it: a file URL (ES modules) or a path (transpiled sources). */
const HERE = new URL(".", import.meta.url);
const OWN_FOLDERS = [HERE.href, decodeURIComponent(HERE.pathname)];

/**
 * The stack without the engine's own frames: from the first frame in this package (where the attempt called
 * the tool) on, what remains is how the engine got there — the same for every tool, and different between
 * two runs of one plan (a batch run, a stream, a resume).
 */
function toolFrames(stack: string): string {
  const lines = stack.split("\n");
  const own = lines.findIndex(
    (line, index) => index > 0 && OWN_FOLDERS.some((folder) => line.includes(folder)),
  );
  return own < 0 ? stack : lines.slice(0, own).join("\n");
}

/**
 * `recorded` with the stack of the `Error` a tool threw (`thrown`), without the engine's frames, for the
 * host: the call's events and its stored record carry it, the run result and a failure branch's value do not
 * (decision 0049). Unchanged when `thrown` is no `Error`, has no stack, or reading it throws (a hostile
 * value).
 */
export function withThrownStack(recorded: RecordedError, thrown: unknown): RecordedError {
  let stack: unknown;
  try {
    stack = thrown instanceof Error ? thrown.stack : undefined;
  } catch {
    return recorded;
  }
  if (typeof stack !== "string" || stack === "") return recorded;
  return { ...recorded, stack: cutText(toolFrames(stack), MAX_STACK_CHARS) };
}
