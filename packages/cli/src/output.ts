import { ObeliskError } from "@obelisk/core";
import pc from "picocolors";
import { cliCommand } from "./cli-command.js";
import type { CliIo, CliStream } from "./cli-io.js";
import { displayText, jsonText } from "./display-text.js";
import { EXIT, type ExitCode } from "./exit-codes.js";
import { errorMessage } from "./usage-error.js";

/** Output format of every command. */
export type OutputFormat = "text" | "json";

/** The colour functions used by text renderers (identity functions when colours are off). */
export type Colors = ReturnType<typeof pc.createColors>;

/** Where a command writes its result, in the chosen format. */
export interface Output {
  /** The chosen format. */
  readonly format: OutputFormat;
  /** Colours (enabled only on a TTY without NO_COLOR). */
  readonly colors: Colors;
  /** True when stdout is a terminal. */
  readonly isTTY: boolean;
  /** The underlying stdout. */
  readonly stdout: CliStream;
  /** How the commands it suggests start (`obelisk`, `pnpm obelisk`: see `cliCommand`). */
  readonly command: string;
  /** Writes one line of text to stdout (text format only; ignored in json format). */
  line(text?: string): void;
  /** Writes THE json document to stdout (json format only). */
  json(document: unknown): void;
}

/** True when colours should be used on this stream (a TTY, NO_COLOR unset; FORCE_COLOR forces). */
export function colorsEnabled(stream: CliStream, env: CliIo["env"]): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== "") return false;
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== "" && env.FORCE_COLOR !== "0") return true;
  return stream.isTTY === true && env.TERM !== "dumb";
}

/** Creates the output of one command. */
export function createOutput(io: CliIo, format: OutputFormat): Output {
  const isTTY = io.stdout.isTTY === true;
  return {
    format,
    colors: pc.createColors(colorsEnabled(io.stdout, io.env)),
    isTTY,
    stdout: io.stdout,
    command: cliCommand(io.env),
    line(text = "") {
      if (format === "text") io.stdout.write(`${text}\n`);
    },
    json(document) {
      if (format === "json") io.stdout.write(`${jsonText(document)}\n`);
    },
  };
}

/** Largest `data` (bytes of JSON) the json error document carries; larger data is left out. */
const MAX_ERROR_DATA_BYTES = 4096;

/** What the json error document says: `hint` and `data` only when the error has them. */
interface ErrorDocument {
  readonly code: string;
  readonly message: string;
  readonly hint?: string;
  readonly data?: unknown;
}

/** The exit code of anything thrown by a command, and its json error document (code, message, …). */
export function classifyError(error: unknown): { exitCode: ExitCode; document: ErrorDocument } {
  if (ObeliskError.is(error)) {
    const exitCode = error.code === "USAGE" || error.code === "RUN_NOT_FOUND" ? EXIT.usage : EXIT.failed;
    const hint = error.hint === undefined ? "" : ` (${error.hint})`;
    // a message that ends with its hint already has it once
    const said = errorMessage(error);
    const message = hint === "" || said.endsWith(hint) ? said : `${said}${hint}`;
    const data = smallJson(error.data);
    const document: ErrorDocument = {
      code: error.code,
      message,
      ...(error.hint === undefined ? {} : { hint: error.hint }),
      ...(data === undefined ? {} : { data }),
    };
    return { exitCode, document };
  }
  return { exitCode: EXIT.failed, document: { code: "INTERNAL", message: errorMessage(error) } };
}

/** `data` as the document carries it: a JSON copy of at most MAX_ERROR_DATA_BYTES, else undefined. */
function smallJson(data: unknown): unknown {
  if (data === undefined) return undefined;
  try {
    const text = JSON.stringify(data);
    return text !== undefined && Buffer.byteLength(text) <= MAX_ERROR_DATA_BYTES
      ? JSON.parse(text)
      : undefined;
  } catch {
    return undefined; // not JSON (a cycle, a BigInt): the message says what happened
  }
}

/**
 * Reports an error the way every command does: json document on stdout (json format), one line on stderr
 * (its message escaped: it often quotes a plan, a tool or a stored value).
 */
export function reportError(io: CliIo, format: OutputFormat, error: unknown): ExitCode {
  const { exitCode, document } = classifyError(error);
  const { code, message } = document;
  if (format === "json") io.stdout.write(`${jsonText({ error: document })}\n`);
  const colors = pc.createColors(colorsEnabled(io.stderr, io.env));
  io.stderr.write(`${colors.red("error")} ${colors.dim(`[${displayText(code)}]`)} ${displayText(message)}\n`);
  if (code === "INTERNAL" && io.env.OBELISK_DEBUG && error instanceof Error)
    io.stderr.write(`${error.stack}\n`);
  return exitCode;
}

/** The `--format` value of a raw argv, before commander parsed it (for errors commander itself raises). */
export function sniffFormat(argv: readonly string[]): OutputFormat {
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--format" && argv[i + 1] === "json") return "json";
    if (arg === "--format=json") return "json";
  }
  return "text";
}
