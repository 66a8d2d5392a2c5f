import { statSync } from "node:fs";
import { resolve } from "node:path";
import type { ValidationResult } from "obelisk";
import type { CliIo } from "./cli-io.js";
import type { CommonOptions } from "./common-options.js";
import { withEngine } from "./engine-session.js";
import { parseInput } from "./parse-input.js";
import { readUtf8File } from "./read-utf8.js";
import { errorMessage, usageError } from "./usage-error.js";

/** A plan file's text, as read from disk (JSON errors are the compiler's business: JSON_SYNTAX). */
export interface PlanFile {
  /** The path as the user gave it (used in diagnostics). */
  readonly name: string;
  /** The file's text. */
  readonly text: string;
}

/** Reads a plan file. A missing or unreadable file is a usage error (exit 2). */
export function readPlanFile(file: string, cwd: string): PlanFile {
  const path = resolve(cwd, file);
  try {
    if (!statSync(path).isFile()) throw new Error("not a file");
    return { name: file, text: readUtf8File(path) };
  } catch (error) {
    const reason = (error as { code?: string }).code === "ENOENT" ? "no such file" : errorMessage(error);
    throw usageError(`cannot read plan file ${file}: ${reason}`);
  }
}

/** A plan file and its validation against the thread (`--tools`, `--store`, `--thread`, `--input`). */
export async function validatePlanFile(
  planPath: string,
  options: CommonOptions,
  io: CliIo,
): Promise<{ readonly plan: PlanFile; readonly result: ValidationResult }> {
  const plan = readPlanFile(planPath, io.cwd);
  const input = parseInput(options.input, io.cwd);
  const result = await withEngine(
    { tools: options.tools, store: options.store, storeAccess: "context" },
    io,
    (engine) =>
      // any JSON the user gave: the engine refuses what is not a plain object (USAGE, exit 2)
      engine.validate(plan.text, {
        threadId: options.thread,
        ...(input === undefined ? {} : { input: input as object }),
      }),
  );
  return { plan, result };
}
