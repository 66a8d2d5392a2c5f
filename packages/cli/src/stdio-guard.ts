import type { CliIo, CliStream } from "./cli-io.js";

/** The process's stdout and stderr as the CLI writes them, kept from ending the process when they fail. */
export interface GuardedStdio {
  /** The io whose stdout and stderr writes are dropped once their stream failed. */
  readonly io: CliIo;
  /** The first error of stdout (EPIPE: the reader closed the pipe; ENOSPC: the disk is full), if any. */
  stdoutError(): NodeJS.ErrnoException | undefined;
  /** Resolves once what was written to stdout and stderr was handed to the system, or failed and said so. */
  drain(): Promise<void>;
}

/**
 * Guards the process's streams. A write to stdout or stderr can fail: the reader of a pipe went away
 * (`obelisk run … | head`: EPIPE), the terminal was closed (EIO), the disk is full (ENOSPC). Node reports
 * that as an `error` event, which, unheard, ends the process with a stack trace in the middle of a run
 * (which then stays `running`). Here the error is heard and remembered, later writes to that stream are
 * dropped, and the command goes on to its end: the run finishes and is recorded, and the exit code is the
 * command's (the bin adds a line on stderr for a stdout error that is not EPIPE).
 */
export function guardStdio(io: CliIo): GuardedStdio {
  const errors = new Map<NodeJS.WriteStream, NodeJS.ErrnoException>();
  const streams = [process.stdout, process.stderr];
  for (const stream of streams) {
    stream.on("error", (error: NodeJS.ErrnoException) => {
      if (!errors.has(stream)) errors.set(stream, error);
    });
  }
  const guard = (cli: CliStream, stream: NodeJS.WriteStream): CliStream => ({
    write(text: string) {
      if (errors.has(stream) || stream.destroyed) return false;
      try {
        return cli.write(text);
      } catch (error) {
        // a file descriptor written synchronously (a file, /dev/full) may throw instead of emitting
        errors.set(stream, error as NodeJS.ErrnoException);
        return false;
      }
    },
    get isTTY() {
      return cli.isTTY === true;
    },
  });
  return {
    io: { ...io, stdout: guard(io.stdout, process.stdout), stderr: guard(io.stderr, process.stderr) },
    stdoutError: () => errors.get(process.stdout),
    // then one turn of the event loop: the error of a write done synchronously is emitted on the next tick
    drain: () => Promise.all(streams.map(drained)).then(() => new Promise((done) => setImmediate(done))),
  };
}

function drained(stream: NodeJS.WriteStream): Promise<void> {
  if (stream.destroyed || !stream.writable || stream.writableLength === 0) return Promise.resolve();
  return new Promise((done) => {
    stream.once("drain", done);
    stream.once("error", done);
    stream.once("close", done);
  });
}
