import type { CliIo } from "./cli-io.js";

/**
 * The io of a `--format json` process. Stdout must hold exactly one JSON document, yet a tools module runs
 * in this process and may print (`console.log`, `process.stdout.write`). So the CLI keeps the real stdout
 * `write` for itself, and every other write to `process.stdout` from here on goes to stderr. (A module that
 * writes to file descriptor 1 directly, e.g. `fs.writeSync(1, …)`, is beyond reach.)
 */
export function reserveStdoutForJson(io: CliIo): CliIo {
  const stdout = process.stdout;
  const write = stdout.write.bind(stdout);
  stdout.write = ((...args: Parameters<typeof process.stderr.write>) =>
    process.stderr.write(...args)) as typeof stdout.write;
  return {
    ...io,
    stdout: {
      write: (text: string) => write(text),
      get isTTY() {
        return stdout.isTTY;
      },
      get columns() {
        return stdout.columns;
      },
    },
  };
}
