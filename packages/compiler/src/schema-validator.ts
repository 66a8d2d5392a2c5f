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

/** Creates a schema compiler (one ajv instance; each schema compiled once, lazily). */
export function createSchemaCompiler(): SchemaCompiler {
  const ajv = new Ajv2020({ allErrors: true, strict: false, strictTuples: false, validateFormats: true });
  addFormats(ajv);
  return {
    assertValid(schema, what) {
      let valid: boolean;
      try {
        valid = ajv.validateSchema(schema) as boolean;
      } catch (error) {
        throw new ObeliskError("USAGE", `${what} is not a valid JSON Schema`, { cause: error });
      }
      if (!valid)
        throw new ObeliskError("USAGE", `${what} is not a valid JSON Schema: ${ajv.errorsText(ajv.errors)}`);
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
