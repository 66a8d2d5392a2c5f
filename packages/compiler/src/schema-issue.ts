import type { ErrorObject } from "ajv";

/** One schema violation, as ajv reports it (`instancePath` is a JSON Pointer inside the checked value). */
export interface SchemaIssue {
  /** JSON Pointer of the offending value inside the validated value (`""` for the value itself). */
  readonly instancePath: string;
  /** The JSON Schema keyword that failed (`type`, `required`, `additionalProperties`, …). */
  readonly keyword: string;
  /** Where the keyword sits in the schema. */
  readonly schemaPath: string;
  /** Keyword parameters (e.g. `missingProperty`, `additionalProperty`). */
  readonly params: Readonly<Record<string, unknown>>;
  /** ajv's message. */
  readonly message: string;
}

/** Checks a value; an empty list means valid. */
export type SchemaCheck = (value: unknown) => readonly SchemaIssue[];

/** One ajv error as an issue (its message, or its keyword when it has none). */
function toIssue(error: ErrorObject): SchemaIssue {
  return {
    instancePath: error.instancePath,
    keyword: error.keyword,
    schemaPath: error.schemaPath,
    params: error.params as Record<string, unknown>,
    message: error.message ?? error.keyword,
  };
}

/** The issues of a valid value (one shared empty list). */
export const NO_ISSUES: readonly SchemaIssue[] = [];

/**
 * ajv's errors as issues: its own list when every error has a message (ajv's default), which has every
 * field an issue has; else copies with the keyword as the message. A call's references in a typed
 * parameter (`number[]` holding `†state.x` strings) give an error each: no second object per error.
 */
export function issuesOf(errors: readonly ErrorObject[] | null | undefined): readonly SchemaIssue[] {
  if (errors === null || errors === undefined) return NO_ISSUES;
  for (let index = 0; index < errors.length; index++)
    if (typeof (errors[index] as ErrorObject).message !== "string") return errors.map(toIssue);
  return errors as readonly SchemaIssue[];
}
