import type { JsonObject } from "@obelisk/core";
import { ObeliskError } from "@obelisk/core";
import type { ErrorObject, ValidateFunction } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import formatsModule from "ajv-formats";

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

const AJV_OPTIONS = { allErrors: true, strict: false, strictTuples: false, validateFormats: true } as const;

/**
 * The instance that checks schemas against the JSON Schema meta-schema, shared by every registry:
 * compiling the meta-schema costs tens of milliseconds, which each `createEngine` used to pay. It never
 * holds user schemas, so registries cannot collide on a schema's `$id`.
 */
let metaSchemaChecker: Ajv2020 | undefined;

function metaChecker(): Ajv2020 {
  if (metaSchemaChecker === undefined) {
    metaSchemaChecker = new Ajv2020(AJV_OPTIONS);
    addFormats(metaSchemaChecker);
  }
  return metaSchemaChecker;
}

/** Creates a schema compiler (one ajv instance per registry; each schema compiled once, lazily). */
export function createSchemaCompiler(): SchemaCompiler {
  // Every schema was checked by `assertValid` first: the compiling instance skips the meta-schema.
  const ajv = new Ajv2020({ ...AJV_OPTIONS, validateSchema: false });
  addFormats(ajv);
  return {
    assertValid(schema, what) {
      const checker = metaChecker();
      let valid: boolean;
      try {
        valid = checker.validateSchema(schema) as boolean;
      } catch (error) {
        throw new ObeliskError("USAGE", `${what} is not a valid JSON Schema`, { cause: error });
      }
      if (!valid)
        throw new ObeliskError(
          "USAGE",
          `${what} is not a valid JSON Schema: ${checker.errorsText(checker.errors)}`,
        );
    },
    lazyCheck(schema, what) {
      let validate: ValidateFunction | undefined;
      return (value) => {
        if (validate === undefined) {
          try {
            validate = ajv.compile(schema);
          } catch (error) {
            throw new ObeliskError("USAGE", `${what} cannot be compiled: ${(error as Error).message}`, {
              cause: error,
            });
          }
        }
        return validate(value) ? [] : (validate.errors ?? []).map(toIssue);
      };
    },
  };
}
