/** A writable text stream as the CLI sees it (process.stdout, or a buffer in tests). */
export interface CliStream {
  /** Writes text. */
  write(text: string): unknown;
  /** True when the stream is a terminal (enables colours and live progress). */
  readonly isTTY?: boolean;
  /** Terminal width, when known. */
  readonly columns?: number;
}

/** Everything the CLI touches outside itself: streams, environment and working directory. */
export interface CliIo {
  /** Standard output: results only. */
  readonly stdout: CliStream;
  /** Standard error: usage errors and warnings. */
  readonly stderr: CliStream;
  /** Environment variables (NO_COLOR, FORCE_COLOR). */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Directory relative paths are resolved against. */
  readonly cwd: string;
}

/** The real process's streams, environment and working directory. */
export function processIo(): CliIo {
  return { stdout: process.stdout, stderr: process.stderr, env: process.env, cwd: process.cwd() };
}
