/**
 * A command stopped where it stood: an exception or a rejection escaped outside a run (a tools module's
 * timer threw while the module loaded, or after the run), and the bin has reported it (one line, exit 1).
 * The command does nothing more — above all it opens no store for writing and starts no run — so each
 * step that would change something first calls {@link stopIfEscaped}.
 */
export class CommandStopped extends Error {
  constructor() {
    super("the command stopped: an exception escaped outside a run");
    this.name = "CommandStopped";
  }
}

let escaped = false;

/** Marks the command as stopped (the bin has reported what escaped). */
export function markEscaped(): void {
  escaped = true;
}

/** True once something escaped and the bin reported it (its own `process.exit` follows). */
export function hasEscaped(): boolean {
  return escaped;
}

/** Throws {@link CommandStopped} once something escaped: the step that calls it must not happen. */
export function stopIfEscaped(): void {
  if (escaped) throw new CommandStopped();
}
