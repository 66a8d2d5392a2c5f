/** Exit codes of the `obelisk` command (SPEC §10). */
export const EXIT = {
  /** Success. */
  ok: 0,
  /** Invalid plan, failed run, or a refused operation. */
  failed: 1,
  /** Usage error: bad flag, unreadable file, tools module that does not load, unknown store scheme. */
  usage: 2,
} as const;

/** One of the CLI's exit codes. */
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];
