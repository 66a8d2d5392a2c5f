import { statSync } from "node:fs";
import { resolve } from "node:path";
import { type Limits, resolveLimits } from "@obelisk/core";
import type { ValidationResult } from "obelisk";
import { cliCommand } from "./cli-command.js";
import { forCli, missingInputForm } from "./cli-diagnostics.js";
import type { CliIo } from "./cli-io.js";
import type { CommonOptions } from "./common-options.js";
import { withEngine } from "./engine-session.js";
import { largeInputInstead, withValueLimitHint } from "./limits-option.js";
import { DEFAULT_STORE } from "./open-store.js";
import { type ParsedInput, parseInput } from "./parse-input.js";
import { decodeUtf8, overLimitBytes, readUtf8File } from "./read-utf8.js";
import { errorMessage, usageError } from "./usage-error.js";

/** A plan file's text, as read from disk (JSON errors are the compiler's business: JSON_SYNTAX). */
export interface PlanFile {
  /** The path as the user gave it (used in diagnostics). */
  readonly name: string;
  /** The file's text. */
  readonly text: string;
  /** The limits it is checked against (`--limits`; unset ones: the defaults). */
  readonly limits?: Partial<Limits>;
}

/** The name a plan read from standard input (`-`) has in diagnostics. */
export const STDIN_PLAN = "<stdin>";

/**
 * Reads a plan file (relative to `io.cwd`), or standard input for `-` (`cat plan.json | obelisk run - …`).
 * A missing or unreadable file is a usage error (exit 2). No more than the document size limit (`limits.maxDocumentBytes`, and a
 * few bytes) is read: the compiler refuses a larger document (PLAN_LIMIT) from what was read.
 */
export async function readPlanFile(
  file: string,
  io: Pick<CliIo, "cwd" | "env">,
  limits: Partial<Limits> = {},
): Promise<PlanFile> {
  const maxBytes = resolveLimits(limits).maxDocumentBytes;
  if (file === "-") {
    // a terminal: the command would wait for a plan nobody is sending, with no word of why
    if (process.stdin.isTTY === true)
      throw usageError(
        "the plan is read from standard input (-), which is a terminal",
        undefined,
        `pipe or redirect the plan into it: ${cliCommand(io.env)} validate - < plan.json, or cat plan.json | ${cliCommand(io.env)} run - …`,
      );
    try {
      return { name: STDIN_PLAN, text: await readStdin(maxBytes), limits };
    } catch (error) {
      throw usageError(`cannot read the plan from standard input: ${errorMessage(error)}`);
    }
  }
  const path = resolve(io.cwd, file);
  try {
    if (!statSync(path).isFile())
      throw new Error("not a regular file (to pipe a plan in, give - and send it to stdin)");
    return { name: file, text: readUtf8File(path, maxBytes), limits };
  } catch (error) {
    const reason = (error as { code?: string }).code === "ENOENT" ? "no such file" : errorMessage(error);
    throw usageError(`cannot read plan file ${file}: ${reason}`);
  }
}

/** Standard input as UTF-8 text, reading no more than is needed to tell it is larger than `maxBytes`. */
function readStdin(maxBytes: number): Promise<string> {
  const cap = overLimitBytes(maxBytes);
  return new Promise((done, fail) => {
    const chunks: Buffer[] = [];
    let total = 0;
    const stdin = process.stdin;
    const finish = (cut: boolean): void => {
      stdin.off("data", onData).off("end", onEnd).off("error", onError);
      // let go of stdin: it must not keep the process alive (nor hide a run that can never settle)
      stdin.pause();
      if (cut) stdin.destroy();
      try {
        done(decodeUtf8(Buffer.concat(chunks).subarray(0, cap), cut));
      } catch (error) {
        fail(error);
      }
    };
    const onData = (chunk: Buffer): void => {
      chunks.push(chunk);
      total += chunk.length;
      if (total >= cap) finish(true);
    };
    const onEnd = (): void => finish(false);
    const onError = (error: Error): void => fail(error);
    stdin.on("data", onData).on("end", onEnd).on("error", onError);
  });
}

/** `validate`'s and `graph`'s options: the common ones (`--thread` optional) and `--limits`. */
export interface PlanCheckOptions extends Omit<CommonOptions, "thread"> {
  /** `--thread`: the thread whose stored state the plan is checked against; none: an empty thread. */
  readonly thread?: string;
  /** `--limits`. */
  readonly limits?: Partial<Limits>;
}

/** What a plan was checked against: a stored thread (its id and store), or an empty thread. */
export type CheckedAgainst =
  | { readonly threadId: string; readonly store: string }
  | { readonly threadId?: undefined; readonly store?: undefined };

/**
 * The thread and store a plan is checked against: `--thread` in `--store`, or, without `--thread`, an
 * empty thread (a memory store; decision 0051). A `--store` file given without `--thread` is not read, with
 * a warning on stderr (it would otherwise be ignored silently).
 */
function checkedAgainst(options: PlanCheckOptions, io: CliIo): CheckedAgainst {
  if (options.thread !== undefined) return { threadId: options.thread, store: options.store };
  // (a memory store holds nothing before the command: nothing is left unread)
  if (options.store !== DEFAULT_STORE && options.store !== "memory")
    io.stderr.write(
      `warning: --store ${options.store} is read only with --thread <id>: checking against an empty thread\n`,
    );
  return {};
}

/**
 * A plan file and its validation against the thread (`--tools`, `--store`, `--thread`, `--input`,
 * `--limits`), its diagnostics as the CLI prints them (`forCli`), and what it was checked against. With
 * `askRun`, a valid plan checked without `--input` is checked again as `run` would run it, with an empty
 * input: when that refuses it, `inputNeeded` is the `--input` a run needs (`'{"userName": …}'`).
 */
export async function validatePlanFile(
  planPath: string,
  options: PlanCheckOptions,
  io: CliIo,
  askRun = false,
): Promise<{
  readonly plan: PlanFile;
  readonly input?: ParsedInput;
  readonly result: ValidationResult;
  readonly against: CheckedAgainst;
  readonly inputNeeded?: string;
}> {
  const limits = options.limits ?? {};
  const plan = await readPlanFile(planPath, io, limits);
  const input = parseInput(options.input, io.cwd, {
    maxValueBytes: resolveLimits(limits).maxValueBytes,
    instead: largeInputInstead(cliCommand(io.env)),
  });
  const against = checkedAgainst(options, io);
  const thread = against.threadId === undefined ? {} : { threadId: against.threadId };
  const { result, inputNeeded } = await withEngine(
    {
      tools: options.tools,
      store: against.store ?? "memory",
      retention: options.retention,
      storeAccess: "context",
      limits,
    },
    io,
    async (engine) => {
      let found: ValidationResult;
      try {
        // any JSON the user gave: the engine refuses what is not a plain object (USAGE, exit 2)
        found = await engine.validate(plan.text, {
          ...thread,
          ...(input === undefined ? {} : { input: input.value as object }),
        });
      } catch (error) {
        if (input === undefined) throw error;
        throw withValueLimitHint(
          error,
          input.value,
          resolveLimits(limits),
          largeInputInstead(cliCommand(io.env)),
        );
      }
      // Without --input the input is unknown (a plan is approved before its inputs exist), but `run`
      // without --input runs with {}: its suggested command must say that the run needs one (decision
      // 0103). Only a plan whose text names "input" (or spells a character as a JSON escape, which may
      // hide it: "\u0069nput") can read †input: no other plan is compiled twice.
      if (!askRun || input !== undefined || !found.ok || !mayReadInput(plan.text)) return { result: found };
      const empty = await engine.validate(plan.text, { ...thread, input: {} });
      return {
        result: found,
        ...(empty.ok ? {} : { inputNeeded: missingInputForm(empty.diagnostics) }),
      };
    },
  );
  return {
    plan,
    ...(input === undefined ? {} : { input }),
    result: forCli(result, input, resolveLimits(limits), true),
    against,
    ...(inputNeeded === undefined ? {} : { inputNeeded }),
  };
}

/** False only when the plan's text can name no `†input` reference: neither "input" nor a `\u` escape. */
function mayReadInput(text: string): boolean {
  return text.includes("input") || text.includes("\\u");
}
