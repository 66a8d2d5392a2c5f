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

/** An instance that compiles already-checked schemas (the meta-schema is not compiled again). */
function compilingAjv(): Ajv2020 {
  return newAjv({ ...AJV_OPTIONS, validateSchema: false });
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

/**
 * Creates a schema compiler: schemas are checked against the meta-schema at once and compiled lazily,
 * on first use; self-contained ones are compiled once per process, the others by this compiler's own
 * ajv instance (created when first needed).
 */
export function createSchemaCompiler(): SchemaCompiler {
  let own: Ajv2020 | undefined;
  const compileSchema = (schema: JsonObject): ValidateFunction => {
    const text = canonicalJson(schema);
    if (!NOT_SELF_CONTAINED.test(text)) return sharedValidator(schema, text);
    own ??= compilingAjv();
    return own.compile(schema);
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
      const pattern = invalidPattern(schema);
      if (pattern !== undefined)
        throw new ObeliskError(
          "USAGE",
          `${what}: the pattern ${JSON.stringify(pattern)} is not a valid regular expression`,
        );
    },
    lazyCheck(schema, what) {
      let validate: ValidateFunction | undefined;
      return (value) => {
        if (validate === undefined) {
          try {
            validate = compileSchema(schema);
          } catch (error) {
            throw new ObeliskError("USAGE", `${what} cannot be compiled: ${(error as Error).message}`, {
              cause: error,
            });
          }
        }
        return validate(value) ? [] : issuesOf(validate.errors);
      };
    },
  };
}
