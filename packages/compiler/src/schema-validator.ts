import type { JsonObject } from "@obelisk/core";
import { canonicalJson, ObeliskError, thrownMessage } from "@obelisk/core";
import type { ErrorObject, Options, ValidateFunction } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import formatsModule from "ajv-formats";
import { toolRegExp } from "./linear-reg-exp.js";
import { invalidPattern } from "./schema-patterns.js";

const addFormats = formatsModule.default;

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

/**
 * A check collects at most this many of ajv's errors for one value (decision 0085): past it, when the
 * errors so far are certain (see `certainPrefix`), it stops and gives them, marked (see `completeCheckOf`).
 */
export const MAX_COLLECTED_ERRORS = 10_000;

/** Compiles JSON Schemas with one shared ajv instance (2020-12, formats, all errors). */
export interface SchemaCompiler {
  /** Throws `USAGE` when `schema` is not a valid JSON Schema. */
  assertValid(schema: JsonObject, what: string): void;
  /** A check that compiles `schema` on first use and caches the compiled validator. */
  lazyCheck(schema: JsonObject, what: string): SchemaCheck;
}

function toIssue(error: ErrorObject): SchemaIssue {
  return {
    instancePath: error.instancePath,
    keyword: error.keyword,
    schemaPath: error.schemaPath,
    params: error.params as Record<string, unknown>,
    message: error.message ?? error.keyword,
  };
}

const NO_ISSUES: readonly SchemaIssue[] = [];

/**
 * ajv's errors as issues: its own list when every error has a message (ajv's default), which has every
 * field an issue has; else copies with the keyword as the message. A call's references in a typed
 * parameter (`number[]` holding `†state.x` strings) give an error each: no second object per error.
 */
function issuesOf(errors: readonly ErrorObject[] | null | undefined): readonly SchemaIssue[] {
  if (errors === null || errors === undefined) return NO_ISSUES;
  for (let index = 0; index < errors.length; index++)
    if (typeof (errors[index] as ErrorObject).message !== "string") return errors.map(toIssue);
  return errors as readonly SchemaIssue[];
}

/** Tool schemas check plan values: their patterns run in linear time where RE2 can run them (`toolRegExp`). */
const AJV_OPTIONS = {
  allErrors: true,
  strict: false,
  strictTuples: false,
  validateFormats: true,
  code: { regExp: toolRegExp },
} as const;

/** Where ajv adds an error to its list (`addError`: push, then count). */
const ERROR_ADDED = /\{vErrors\.push\((err\d+)\);\}errors\+\+;/g;

/**
 * What a stopping validator throws: a string, which the generated code can write and nothing else throws
 * (a function of a `$ref`'s target stops too, so the validator checked is not always the one that stops).
 */
const STOPPED_SIGNAL = "obelisk: the schema check stopped collecting errors";

/**
 * ajv's code for one schema, made to stop collecting errors: past `MAX_COLLECTED_ERRORS` in one function,
 * it keeps them on the function (`errors`) and throws `STOPPED_SIGNAL` (see `stoppedIssues`). Until then
 * it runs as before: one comparison more per error, none on a valid value.
 */
function stoppingCode(code: string): string {
  const name = /return function (validate\d+)\(/.exec(code)?.[1];
  if (name === undefined) return code;
  return code.replace(
    ERROR_ADDED,
    (_, error: string) =>
      `{vErrors.push(${error});}if(++errors>${MAX_COLLECTED_ERRORS}){${name}.errors=vErrors;throw ${JSON.stringify(STOPPED_SIGNAL)};}`,
  );
}

/**
 * The instance that checks schemas against the JSON Schema meta-schema, shared by every registry:
 * compiling the meta-schema costs tens of milliseconds, which each `createEngine` used to pay. It never
 * holds user schemas, so registries cannot collide on a schema's `$id`.
 */
let metaSchemaChecker: Ajv2020 | undefined;

function metaChecker(): Ajv2020 {
  metaSchemaChecker ??= newAjv(AJV_OPTIONS);
  return metaSchemaChecker;
}

/** An ajv instance with the formats. */
function newAjv(options: Options): Ajv2020 {
  const ajv = new Ajv2020(options);
  addFormats(ajv);
  return ajv;
}

/** Compiled validators by schema text, shared by every registry: a fresh engine reuses them. */
const validatorsByText = new Map<string, ValidateFunction>();
const MAX_SHARED_VALIDATORS = 256;
/** ajv keeps every schema it compiled: the shared instance is replaced after this many. */
const COMPILES_PER_INSTANCE = 128;
let sharedCompiler: Ajv2020 | undefined;
let sharedCompiles = 0;

/**
 * An instance that compiles already-checked schemas (the meta-schema is not compiled again) into
 * validators that stop collecting errors (`stoppingCode`), or, for `complete`, into ones that never stop.
 */
function compilingAjv(complete = false): Ajv2020 {
  const code = complete ? AJV_OPTIONS.code : { ...AJV_OPTIONS.code, process: stoppingCode };
  return newAjv({ ...AJV_OPTIONS, validateSchema: false, code });
}

/**
 * A schema that names itself (`$id`) or refers outside itself (a `$ref` not starting with `#`) can depend
 * on what else its instance holds, so it is compiled by its registry's own instance and never shared.
 */
const NOT_SELF_CONTAINED = /"\$id"|"\$(?:ref|dynamicRef|recursiveRef)":"(?!#)/;

/** The validator of a self-contained schema: compiled once per process (per schema text). */
function sharedValidator(schema: JsonObject, text: string): ValidateFunction {
  const known = validatorsByText.get(text);
  if (known !== undefined) return known;
  if (sharedCompiler === undefined || sharedCompiles >= COMPILES_PER_INSTANCE) {
    sharedCompiler = compilingAjv();
    sharedCompiles = 0;
  }
  sharedCompiles++;
  const validate = sharedCompiler.compile(schema);
  if (validatorsByText.size >= MAX_SHARED_VALIDATORS)
    validatorsByText.delete(validatorsByText.keys().next().value as string);
  validatorsByText.set(text, validate);
  return validate;
}

/** A compiled validator, and what its stopped runs can tell (decision 0085). */
interface Compiled {
  readonly validate: ValidateFunction;
  /** Whether a stopped run's errors can settle (see `certainPrefix`): a schema without references. */
  readonly settles: boolean;
  /** Whether the schema has a `format` (a `pattern` error's reading then depends on one at its value). */
  readonly formats: boolean;
}

/** Keys that refer to another schema: ajv then writes an error's `schemaPath` from the target's place. */
const REFERENCE_KEY = /"\$(?:ref|dynamicRef|recursiveRef)":/;

/**
 * Keywords whose errors a later step may take back (a branch of `anyOf` / `oneOf` that another passes,
 * `not`, `if`, `contains`) or reads with its siblings (`literalIssues`: a combinator stands for its
 * branches, an `if` for its `then` / `else`): an error below one is not settled before the run ends.
 */
const UNSETTLED_PATH = /\/(?:anyOf|oneOf|not|if|then|else|contains)(?:\/|$)/;

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
 * same order, and `literalIssues` reads them as it would there. That holds when none sits below a keyword
 * that may take it back or read it with later ones (`UNSETTLED_PATH`; ajv writes such a path in full when
 * the schema has no references), and each `pattern` error of a schema with formats comes with its value's
 * `format` error (zod's `.email()`: one violation). The errors of the last value are left out: more of
 * the same value may follow. Undefined otherwise.
 */
function certainPrefix(errors: readonly ErrorObject[], formats: boolean): readonly SchemaIssue[] | undefined {
  let end = errors.length;
  const last = errors[end - 1]?.instancePath;
  while (end > 0 && (errors[end - 1] as ErrorObject).instancePath === last) end--;
  let patterns: Set<string> | undefined;
  for (let index = 0; index < end; index++) {
    const error = errors[index] as ErrorObject;
    if (typeof error.schemaPath !== "string" || UNSETTLED_PATH.test(error.schemaPath)) return undefined;
    if (formats && error.keyword === "pattern") {
      patterns ??= new Set();
      patterns.add(error.instancePath);
    }
  }
  if (patterns !== undefined) {
    for (let index = 0; index < end; index++) {
      const error = errors[index] as ErrorObject;
      if (error.keyword === "format") patterns.delete(error.instancePath);
    }
    if (patterns.size > 0) return undefined;
  }
  return end === 0 ? undefined : issuesOf(errors.slice(0, end));
}

/**
 * The issues of a run of `compiled` that stopped on `value`: its certain first ones, marked with the
 * complete check (`completeCheckOf`), or the complete check's. Without references the schema is one
 * function, the one that stopped: its `errors` are this run's. Its own function: the closure over `value`
 * in the check itself would cost every check a context.
 */
function stoppedIssues(
  compiled: Compiled,
  value: unknown,
  completeIssues: (value: unknown) => readonly SchemaIssue[],
): readonly SchemaIssue[] {
  const validate = compiled.validate;
  const errors = validate.errors ?? [];
  validate.errors = null;
  const prefix = compiled.settles && errors.length > 0 ? certainPrefix(errors, compiled.formats) : undefined;
  if (prefix === undefined) return completeIssues(value);
  STOPPED.set(prefix, () => completeIssues(value));
  return prefix;
}

/** Compiles a schema, or throws USAGE naming `what` and ajv's reason. */
function compiledOrUsage<T>(compile: () => T, what: string): T {
  try {
    return compile();
  } catch (error) {
    throw new ObeliskError("USAGE", `${what} cannot be compiled: ${(error as Error).message}`, {
      cause: error,
    });
  }
}

/**
 * Creates a schema compiler: schemas are checked against the meta-schema at once and compiled lazily,
 * on first use; self-contained ones are compiled once per process, the others by this compiler's own
 * ajv instance (created when first needed). A self-contained schema's check stops collecting errors past
 * `MAX_COLLECTED_ERRORS` when the ones collected are certain (decision 0085), else it checks the value
 * again with a validator that collects them all (this compiler's `complete` instance).
 */
export function createSchemaCompiler(): SchemaCompiler {
  let own: Ajv2020 | undefined;
  let complete: Ajv2020 | undefined;
  const compileSchema = (schema: JsonObject): Compiled => {
    const text = canonicalJson(schema);
    if (NOT_SELF_CONTAINED.test(text)) {
      own ??= compilingAjv(true);
      return { validate: own.compile(schema), settles: false, formats: false };
    }
    const settles = !REFERENCE_KEY.test(text);
    return { validate: sharedValidator(schema, text), settles, formats: text.includes('"format":') };
  };
  return {
    assertValid(schema, what) {
      const checker = metaChecker();
      let valid: boolean;
      try {
        valid = checker.validateSchema(schema) as boolean;
      } catch (error) {
        throw new ObeliskError("USAGE", `${what} is not a valid JSON Schema: ${thrownMessage(error)}`, {
          cause: error,
          hint: 'a schema is plain JSON data: no cycles (use "$ref" for a recursive shape), no getters or Proxies',
        });
      }
      if (!valid)
        throw new ObeliskError(
          "USAGE",
          `${what} is not a valid JSON Schema: ${checker.errorsText(checker.errors)}`,
        );
      // ajv makes a root `$async` schema's check return a promise (truthy: "valid") that rejects later,
      // unhandled; one below the root it refuses when compiling
      if (schema.$async === true)
        throw new ObeliskError("USAGE", `${what} is an async schema ($async: true)`, {
          hint: "tool schemas are checked synchronously: remove $async",
        });
      const pattern = invalidPattern(schema);
      if (pattern !== undefined)
        throw new ObeliskError(
          "USAGE",
          `${what}: the pattern ${JSON.stringify(pattern)} is not a valid regular expression`,
        );
    },
    lazyCheck(schema, what) {
      let compiled: Compiled | undefined;
      let completeValidate: ValidateFunction | undefined;
      const completeIssues = (value: unknown): readonly SchemaIssue[] => {
        completeValidate ??= compiledOrUsage(() => {
          complete ??= compilingAjv(true);
          return complete.compile(schema);
        }, what);
        return completeValidate(value) ? NO_ISSUES : issuesOf(completeValidate.errors);
      };
      return (value) => {
        compiled ??= compiledOrUsage(() => compileSchema(schema), what);
        const validate = compiled.validate;
        try {
          return validate(value) ? [] : issuesOf(validate.errors);
        } catch (thrown) {
          if (thrown !== STOPPED_SIGNAL) throw thrown;
          return stoppedIssues(compiled, value, completeIssues);
        }
      };
    },
  };
}
