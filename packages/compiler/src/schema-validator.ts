import type { JsonObject } from "@obelisk/core";
import { canonicalJson, isUrlFormat, ObeliskError, thrownMessage } from "@obelisk/core";
import type { Options, ValidateFunction } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import formatsModule from "ajv-formats";
import { ZOD_PATTERN_FORMATS } from "./format-message.js";
import { toolRegExp } from "./linear-reg-exp.js";
import { issuesOf, NO_ISSUES, type SchemaCheck, type SchemaIssue } from "./schema-issue.js";
import { invalidPattern } from "./schema-patterns.js";
import { type Compiled, STOPPED_SIGNAL, stoppedIssues, stoppingCode } from "./stopping-check.js";

export type { SchemaCheck, SchemaIssue } from "./schema-issue.js";
export { completeCheckOf, MAX_COLLECTED_ERRORS } from "./stopping-check.js";

const addFormats = formatsModule.default;

/** Compiles JSON Schemas with one shared ajv instance (2020-12, formats, all errors). */
export interface SchemaCompiler {
  /** Throws `USAGE` when `schema` is not a valid JSON Schema. */
  assertValid(schema: JsonObject, what: string): void;
  /** A check that compiles `schema` on first use and caches the compiled validator. */
  lazyCheck(schema: JsonObject, what: string): SchemaCheck;
}

/** Tool schemas check plan values: their patterns run in linear time where RE2 can run them (`toolRegExp`). */
const AJV_OPTIONS = {
  allErrors: true,
  strict: false,
  strictTuples: false,
  validateFormats: true,
  code: { regExp: toolRegExp },
  // a library does not print: a format ajv does not know is not checked (an annotation, as JSON Schema
  // 2020-12 has it), which the compiler README says, instead of two console warnings per schema
  logger: false,
} as const;

/** A `"format":` member of a schema's canonical text, with its value when that is a string. */
const FORMAT_MEMBER = /"format":(?:"((?:[^"\\]|\\.)*)")?/g;

/**
 * Whether a schema's text names a `format` that can fail (a `pattern` error is then read with its value's
 * `format` error: decision 0085). zod's string checks written as formats never fail (ajv does not know
 * them: unknown formats pass) — their `pattern` checks — so alone they do not count: a zod
 * `.startsWith()` array then stops collecting as a plain one does. Conservative: a property named
 * `format` counts too.
 */
function hasFailingFormat(text: string): boolean {
  for (const [, name] of text.matchAll(FORMAT_MEMBER))
    if (name === undefined || !ZOD_PATTERN_FORMATS.includes(JSON.parse(`"${name}"`) as string)) return true;
  return false;
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
  ajv.addFormat("url", isUrlFormat); // ajv-formats' regex is cubic in the string; same verdicts, linear (0105)
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

/** Keys that refer to another schema: ajv then writes an error's `schemaPath` from the target's place. */
const REFERENCE_KEY = /"\$(?:ref|dynamicRef|recursiveRef)":/;

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
      return { validate: own.compile(schema), schema, settles: false, formats: false };
    }
    const settles = !REFERENCE_KEY.test(text);
    return { validate: sharedValidator(schema, text), schema, settles, formats: hasFailingFormat(text) };
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
      // ajv makes a schema whose root `$async` is truthy (any such value, as ajv reads it) check with a
      // promise (truthy: "valid") that rejects later, unhandled; one below the root it refuses compiling
      if (schema.$async)
        throw new ObeliskError(
          "USAGE",
          `${what} is an async schema ($async: ${JSON.stringify(schema.$async)})`,
          {
            hint: "tool schemas are checked synchronously: remove $async",
          },
        );
      const invalid = invalidPattern(schema);
      if (invalid !== undefined)
        throw new ObeliskError("USAGE", `${what} at ${invalid.pointer}: ${invalid.message}`);
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
