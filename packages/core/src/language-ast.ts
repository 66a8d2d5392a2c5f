import type { DiagnosticCode } from "./diagnostic-codes.js";
import type { Path } from "./path.js";

/** A parsed reference `†<kind><path>` (SPEC §2). */
export interface Reference {
  /** The kind (`input`, `state`, `calls`, or a declared kind). */
  readonly kind: string;
  /** The path below the kind's root; empty for `†state` (the whole value). */
  readonly path: Path;
  /** Canonical text, e.g. `†state.user["first name"][0]`. */
  readonly text: string;
}

/**
 * An input expression: `||` alternatives of `&&` gates (`&&` binds tighter).
 * A plain reference is one alternative holding one operand.
 * Value: the first alternative whose operands all exist; an alternative's value is its last operand.
 */
export interface InputExpression {
  /** The `||` alternatives, left to right; each is a non-empty `&&` list of references. */
  readonly alternatives: readonly (readonly Reference[])[];
}

/** A parameter string after parsing (SPEC §2 rules 1–4, 7). */
export type ParameterValue =
  /** A literal string (escapes already removed). `suspicious` is set when it contains `†<known kind>.`. */
  | { readonly type: "literal"; readonly value: string; readonly suspicious: boolean }
  /** The whole string is an expression: replaced by the value with its JSON type kept. */
  | { readonly type: "reference"; readonly expression: InputExpression }
  /**
   * A template: literal parts and `{†…}` expressions; strings inserted as-is, other values as compact JSON.
   * `suspicious` (only present when true) when a literal part contains `†<known kind>.` (SPEC §2 rule 4).
   */
  | {
      readonly type: "template";
      readonly parts: readonly (string | InputExpression)[];
      readonly suspicious?: true;
    };

/** One target of an output path: a writable kind and a path with at least one name segment. */
export interface OutputTarget {
  /** The writable kind (e.g. `state`). */
  readonly kind: string;
  /** The path below the kind's root (non-empty, no negative index). */
  readonly path: Path;
  /** Canonical text of the target. */
  readonly text: string;
}

/** A parsed `_outputPath` (SPEC §3): `||` alternatives of `&&` fan-out targets. */
export interface OutputPath {
  /** The alternatives, in order; exactly one is written per call. */
  readonly alternatives: readonly (readonly OutputTarget[])[];
  /** Canonical text (round-trips through the parser). */
  readonly text: string;
}

/** A problem found while parsing one string of the language. */
export interface LanguageIssue {
  /** Stable code (`REF_SYNTAX`, `REF_KIND_UNKNOWN`, `REF_FORBIDDEN_SEGMENT`, `OUTPUT_PATH_SYNTAX`, `OUTPUT_PATH_READONLY`, `PLAN_LIMIT`). */
  readonly code: DiagnosticCode;
  /** Human message. */
  readonly message: string;
  /** 0-based character offset of the problem inside the parsed string. */
  readonly offset: number;
  /** Suggestion (e.g. nearest kind name). */
  readonly hint?: string;
  /**
   * The one kind the hint tells to read instead, when the hint names no other (`calls` for `†outputs.s` →
   * `†calls.s`): a reader may keep such a hint without judging its text (decision 0082).
   */
  readonly hintKind?: string;
}

/** Result of parsing: a value, or the first problem found. Parsers return this; they never throw. */
export type ParseResult<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly issue: LanguageIssue };
