import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { ObeliskError } from "@obelisk/core";

/** SHA-256 of a file's bytes: a test's proof that opening it changed nothing. */
export const digest = (file: string): string => createHash("sha256").update(readFileSync(file)).digest("hex");

/** The error `open` throws, of `code` when given (fails the test when it throws none, or another). */
export function refusal(open: () => unknown, code?: string): ObeliskError {
  try {
    open();
  } catch (error) {
    if (ObeliskError.is(error) && (code === undefined || error.code === code)) return error;
    throw error;
  }
  throw new Error("the store opened");
}
