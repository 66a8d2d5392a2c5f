import type { ErrorObject, ValidateFunction } from "ajv";
import { issuesOf, type SchemaIssue } from "./schema-issue.js";
import { settledErrors } from "./settled-combinators.js";

/**
 * A check collects at most this many of ajv's errors for one value (decision 0085): past it, when the
 * errors so far are certain (see `certainPrefix`), it stops and gives them, marked (see `completeCheckOf`).
 */
export const MAX_COLLECTED_ERRORS = 10_000;

/**
 * Where ajv adds an error to its list (`addError`: push, then count), or a string literal of the code (a
 * schema's `const`, `enum` or property names), which is passed over: such text inside one is data.
 */
const ERROR_ADDED = /"(?:[^"\\]|\\.)*"|\{vErrors\.push\((err\d+)\);\}errors\+\+;/g;

/**
 * What a stopping validator throws: a string, which the generated code can write and nothing else throws
 * (a function of a `$ref`'s target stops too, so the validator checked is not always the one that stops).
 */
export const STOPPED_SIGNAL = "obelisk: the schema check stopped collecting errors";

/**
 * ajv's code for one schema, made to stop collecting errors: past `MAX_COLLECTED_ERRORS` in one function,
 * it keeps them on the function (`errors`) and throws `STOPPED_SIGNAL` (see `stoppedIssues`). Until then
 * it runs as before: one comparison more per error, none on a valid value.
 */
export function stoppingCode(code: string): string {
  const name = /return function (validate\d+)\(/.exec(code)?.[1];
  if (name === undefined) return code;
  return code.replace(ERROR_ADDED, (found: string, error: string | undefined) =>
    error === undefined
      ? found
      : `{vErrors.push(${error});}if(++errors>${MAX_COLLECTED_ERRORS}){${name}.errors=vErrors;throw ${JSON.stringify(STOPPED_SIGNAL)};}`,
  );
}

/** A compiled validator, and what its stopped runs can tell (decision 0085). */
export interface Compiled {
  readonly validate: ValidateFunction;
  /** The schema compiled (a stopped run's errors are read against it, see `settledErrors`). */
  readonly schema: unknown;
  /** Whether a stopped run's errors can settle (see `certainPrefix`): a schema without references. */
  readonly settles: boolean;
  /** Whether the schema has a `format` (a `pattern` error's reading then depends on one at its value). */
  readonly formats: boolean;
}

/** The issues of stopped runs, each with the complete check of its value. */
const STOPPED = new WeakMap<readonly SchemaIssue[], () => readonly SchemaIssue[]>();

/**
 * For the issues of a check that stopped collecting (decision 0085), the check of the same value that
 * collects them all; undefined for complete issues (every other check's).
 */
export function completeCheckOf(issues: readonly SchemaIssue[]): (() => readonly SchemaIssue[]) | undefined {
  return STOPPED.get(issues);
}

/**
 * The first errors of a run that stopped, when they are certain: a complete run gives them first, in the
 * same order, then (after others) the errors that close the combinators still running when it stopped, and
 * `literalIssues` reads them all as it would there. That holds for the errors before the first one below a
 * keyword that may still take it back (`settledErrors`: a combinator whose branch the value's type does not
 * decide, a `contains` that has not failed) when each `pattern` error of a schema with formats comes with
 * its value's `format` error (zod's `.email()`: one violation). The errors of the last value are left out:
 * more of the same value may follow. Undefined otherwise.
 */
function certainPrefix(
  errors: readonly ErrorObject[],
  compiled: Compiled,
  value: unknown,
): readonly SchemaIssue[] | undefined {
  let last = errors.length;
  const lastPath = errors[last - 1]?.instancePath;
  while (last > 0 && (errors[last - 1] as ErrorObject).instancePath === lastPath) last--;
  const { end, closing } = settledErrors(errors, last, compiled.schema, value);
  if (end === 0) return undefined;
  if (compiled.formats) {
    let patterns: Set<string> | undefined;
    for (let index = 0; index < end; index++) {
      const error = errors[index] as ErrorObject;
      if (error.keyword !== "pattern") continue;
      patterns ??= new Set();
      patterns.add(error.instancePath);
    }
    if (patterns !== undefined) {
      for (let index = 0; index < end; index++) {
        const error = errors[index] as ErrorObject;
        if (error.keyword === "format") patterns.delete(error.instancePath);
      }
      if (patterns.size > 0) return undefined;
    }
  }
  const prefix = issuesOf(errors.slice(0, end));
  return closing.length === 0 ? prefix : [...prefix, ...closing];
}

/**
 * The issues of a run of `compiled` that stopped on `value`: its certain first ones, marked with the
 * complete check (`completeCheckOf`), or the complete check's. Without references the schema is one
 * function, the one that stopped: its `errors` are this run's. Its own function: the closure over `value`
 * in the check itself would cost every check a context.
 */
export function stoppedIssues(
  compiled: Compiled,
  value: unknown,
  completeIssues: (value: unknown) => readonly SchemaIssue[],
): readonly SchemaIssue[] {
  const validate = compiled.validate;
  const errors = validate.errors ?? [];
  validate.errors = null;
  const prefix = compiled.settles && errors.length > 0 ? certainPrefix(errors, compiled, value) : undefined;
  if (prefix === undefined) return completeIssues(value);
  STOPPED.set(prefix, () => completeIssues(value));
  return prefix;
}
