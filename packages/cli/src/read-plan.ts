import { statSync } from "node:fs";
import { resolve } from "node:path";
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
