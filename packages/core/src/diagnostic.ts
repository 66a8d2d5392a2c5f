import type { DiagnosticCode, Severity } from "./diagnostic-codes.js";

/** One problem found in a plan (SPEC §6). Data, never thrown. */
export interface Diagnostic {
  /** Stable code. */
  readonly code: DiagnosticCode;
  /** `error` blocks execution; `warning` does not. */
  readonly severity: Severity;
  /** Human message (not stable API). */
  readonly message: string;
  /** RFC 6901 JSON Pointer into the submitted document (`""` for the document itself). */
  readonly pointer: string;
  /** The call the problem belongs to, when there is one. */
  readonly callId?: string;
  /** A suggestion, e.g. `did you mean "greetUser"?`. */
  readonly hint?: string;
  /** Other calls involved (the other writer of an OUTPUT_CONFLICT, the calls of a CYCLE). */
  readonly related?: readonly string[];
}

/** Source position of a pointer in the original text (1-based line and column). */
export interface SourcePosition {
  /** 1-based line. */
  readonly line: number;
  /** 1-based column. */
  readonly column: number;
  /** 0-based character offset. */
  readonly offset: number;
  /** Length of the located value in characters. */
  readonly length: number;
}
