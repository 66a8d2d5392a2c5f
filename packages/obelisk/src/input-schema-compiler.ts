import { linearRegExp, refuseLargePatterns, UnsupportedPattern } from "@obelisk/compiler";
import { appendPointer, isUrlFormat, type JsonObject, resolvePointer, thrownMessage } from "@obelisk/core";
import type { ErrorObject, ValidateFunction } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import formatsModule from "ajv-formats";
import { costMayMultiply, inputCheckCost } from "./input-check-cost.js";

const addFormats = formatsModule.default;

/** What is wrong with a schema itself; `pointer` is inside the schema (`""` for the whole schema). */
export interface SchemaProblem {
  readonly pointer: string;
  readonly message: string;
}

/** One violation by a checked value: where in the value, and the failing keyword (a pointer inside the schema). */
export interface InputIssue {
  readonly instancePath: string;
  readonly schemaPointer: string;
  readonly message: string;
}

/** At most this many violations are given for one check (with the number of all of them). */
const MAX_INPUT_ISSUES = 100;

/**
 * What checking a value found: its first `MAX_INPUT_ISSUES` violations and how many ajv found in all, or
 * (`refused`) why it was not checked: the check would cost more than the input's budget (see `inputCheckCost`).
 */
type InputCheckResult =
  | { readonly issues: readonly InputIssue[]; readonly total: number }
  | { readonly refused: string };

/** A compiled input schema, or why it cannot be used. */
export type CompiledInputSchema =
  | { readonly ok: true; readonly check: (value: unknown) => InputCheckResult }
  | { readonly ok: false; readonly problems: readonly SchemaProblem[] };

/**
 * An ajv instance keeps what it compiled (its cache, pattern and function scope values, nested `$id`s): it
 * is replaced after this many schemas (failed ones included), and at once after a schema with an `$id`.
 * A failed compile leaves nothing another schema can see (no root is registered: `addUsedSchema: false`).
 */
const SCHEMAS_PER_INSTANCE = 100;

/**
 * Checks schemas against the meta-schema for every compiler of the process: compiling the meta-schema
 * costs tens of milliseconds, which each fresh instance used to pay on its first schema. It never compiles
 * a run's schema, so nothing of one plan is visible to another through it.
 */
let metaSchemaChecker: Ajv2020 | undefined;

function newAjv(): Ajv2020 {
  const ajv = new Ajv2020({
    allErrors: true,
    strict: false,
    strictTuples: false,
    validateFormats: true,
    validateSchema: false, // checked first by `metaProblems`, with pointers
    addUsedSchema: false, // a plan's `$id` must not become visible to another plan
    code: { regExp: linearRegExp },
    logger: false, // a format ajv does not know is not checked; a plan's schema must not print to the host's console
  });
  addFormats(ajv);
  ajv.addFormat("url", isUrlFormat); // ajv-formats' regex is cubic in the string; same verdicts, linear (0105)
  return ajv;
}

/** The first pointer inside `schema` where `match(key, value, parentKey)` holds (iterative: any depth). */
function findPointer(
  schema: JsonObject,
  match: (key: string, value: unknown, parentKey: string | undefined) => boolean,
): string | undefined {
  const stack: [unknown, string, string | undefined][] = [[schema, "", undefined]];
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    const [node, pointer, nodeKey] = next;
    if (typeof node !== "object" || node === null) continue;
    const entries = Object.entries(node);
    for (const [key, value] of entries) if (match(key, value, nodeKey)) return appendPointer(pointer, key);
    for (let i = entries.length - 1; i >= 0; i--) {
      const [key, value] = entries[i] as [string, unknown];
      stack.push([value, appendPointer(pointer, key), key]);
    }
  }
  return undefined;
}

/**
 * True when `schema` has an `$id` (ajv keeps it, so the next schema needs a new instance), or cannot be
 * read (a getter or Proxy trap that throws: its compile failed already, and is a problem returned).
 */
function mayHaveId(schema: JsonObject): boolean {
  try {
    return findPointer(schema, (key) => key === "$id") !== undefined;
  } catch {
    return true;
  }
}

/** Problems found by the meta-schema, one per location inside the schema. */
function metaProblems(ajv: Ajv2020, schema: JsonObject): SchemaProblem[] {
  const meta = schema.$schema;
  if (typeof meta === "string" && ajv.getSchema(meta) === undefined)
    return [{ pointer: "/$schema", message: `unknown meta-schema ${JSON.stringify(meta)}` }];
  if (ajv.validateSchema(schema) === true) return [];
  const byPointer = new Map<string, string[]>();
  for (const error of ajv.errors ?? []) {
    const messages = byPointer.get(error.instancePath) ?? [];
    messages.push(error.message ?? error.keyword);
    byPointer.set(error.instancePath, messages);
  }
  if (byPointer.size === 0) byPointer.set("", ["does not follow the JSON Schema meta-schema"]);
  return [...byPointer].map(([pointer, messages]) => ({ pointer, message: messages.join("; ") }));
}

/** The problem behind an error thrown while compiling, located in the schema where possible. */
function compileProblem(schema: JsonObject, error: unknown): SchemaProblem {
  if (error instanceof UnsupportedPattern) {
    const pointer = findPointer(
      schema,
      (key, value, parentKey) =>
        (key === "pattern" && value === error.pattern) ||
        (parentKey === "patternProperties" && key === error.pattern),
    );
    return { pointer: pointer ?? "", message: error.message };
  }
  if (error instanceof RangeError)
    return { pointer: "", message: `the schema refers to itself without end (${error.message})` };
  const missing = (error as { missingRef?: unknown }).missingRef;
  if (typeof missing === "string") {
    // (ajv reports the reference normalized: "#" becomes "")
    const written = (value: unknown): value is string =>
      typeof value === "string" && (value === missing || value.replace(/#$/, "") === missing);
    const pointer = findPointer(schema, (key, value) => key === "$ref" && written(value));
    const found = pointer === undefined ? undefined : resolvePointer(schema, pointer);
    const ref = found?.found === true ? found.value : missing;
    return {
      pointer: pointer ?? "",
      message: `$ref ${JSON.stringify(ref)} cannot be resolved (a missing or endless reference; nothing is fetched)`,
    };
  }
  return { pointer: "", message: thrownMessage(error) };
}

/** ajv's `schemaPath` (`#/properties/a/maxLength`, URI-encoded) as a pointer that resolves in `schema`, or `""`. */
function schemaPointer(schema: JsonObject, schemaPath: string): string {
  let pointer: string;
  try {
    pointer = decodeURIComponent(schemaPath.startsWith("#") ? schemaPath.slice(1) : schemaPath);
  } catch {
    return "";
  }
  return pointer.startsWith("/") && resolvePointer(schema, pointer).found ? pointer : "";
}

/** The first `MAX_INPUT_ISSUES` of ajv's errors as issues, with how many there are. */
function toIssues(schema: JsonObject, errors: readonly ErrorObject[]): InputCheckResult {
  const issues = errors.slice(0, MAX_INPUT_ISSUES).map((error) => ({
    instancePath: error.instancePath,
    schemaPointer: schemaPointer(schema, error.schemaPath),
    message: error.message ?? error.keyword,
  }));
  return { issues, total: errors.length };
}

/** Why checking `value` against `schema` is refused (its cost counted first), or undefined when it is not. */
function refusal(schema: JsonObject, value: unknown): string | undefined {
  const cost = inputCheckCost(schema, value);
  if (cost.unfollowed !== undefined)
    return `its $ref ${JSON.stringify(cost.unfollowed)} cannot be followed to count what the check costs`;
  if (cost.withinBudget) return undefined;
  return `checking this input against it would take over ${cost.budget.toLocaleString("en-US")} steps`;
}

/** Why a schema with `$async: true` at its root is refused. */
const ASYNC_SCHEMA = "an async schema ($async: true) cannot check an input: inputs are checked synchronously";

/**
 * Compiles the JSON Schemas that come with a run (a plan's `inputSchema`, an Input message's `schema`): they
 * are untrusted data, so patterns run on a linear-time engine and every failure — not a schema, an
 * unsupported or invalid pattern, an unresolvable or endless `$ref` — is a problem returned, never a throw.
 */
export class InputSchemaCompiler {
  #ajv: Ajv2020 | undefined;
  #compiled = 0;

  /** Compiles `schema` (or says why it cannot be used). */
  compile(schema: JsonObject): CompiledInputSchema {
    this.#ajv ??= newAjv();
    const ajv = this.#ajv;
    let problems: SchemaProblem[];
    let validate: ValidateFunction | undefined;
    try {
      metaSchemaChecker ??= newAjv();
      problems = metaProblems(metaSchemaChecker, schema);
      if (problems.length === 0) {
        refuseLargePatterns(schema); // before ajv compiles any: their programs summed (decision 0106)
        validate = ajv.compile(schema);
      }
      // a root `$async` makes ajv's check a promise (truthy) that rejects later, unhandled: refused
      if (validate !== undefined && "$async" in validate && validate.$async === true) {
        validate = undefined;
        problems = [{ pointer: "/$async", message: ASYNC_SCHEMA }];
      }
    } catch (error) {
      problems = [compileProblem(schema, error)];
    }
    if (++this.#compiled >= SCHEMAS_PER_INSTANCE || mayHaveId(schema)) {
      this.#ajv = undefined;
      this.#compiled = 0;
    }
    if (validate === undefined) return { ok: false, problems };
    const compiled = validate;
    const counted = costMayMultiply(schema);
    return {
      ok: true,
      check: (value) => {
        try {
          const refused = counted ? refusal(schema, value) : undefined;
          if (refused !== undefined) return { refused };
          return compiled(value) ? { issues: [], total: 0 } : toIssues(schema, compiled.errors ?? []);
        } catch (error) {
          const reason = error instanceof RangeError ? "it is nested too deeply" : String(error);
          const message = `the input cannot be checked: ${reason}`;
          return { issues: [{ instancePath: "", schemaPointer: "", message }], total: 1 };
        }
      },
    };
  }
}
