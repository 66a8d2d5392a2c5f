import type { JsonObject, JsonValue, Path } from "@obelisk/core";
import { canonicalJson, isUrlFormat, ObeliskError } from "@obelisk/core";
import type { ErrorObject, ValidateFunction } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import formatsModule from "ajv-formats";
import type { StateWrite } from "../store-types.js";
import { stateRegExp, stateSchemaProblem } from "./state-reg-exp.js";

const addFormats = formatsModule.default;
const ROOT_KEY = "obelisk:state";

/** Keywords that a write below a node cannot break while the node already existed (see `locateSchema`). */
const SAFE_KEYWORDS = new Set([
  "type",
  "properties",
  "additionalProperties",
  "items",
  "required",
  "$ref",
  "title",
  "description",
  "default",
  "examples",
  "$comment",
  "$defs",
  "definitions",
  "$schema",
  "$id",
  "deprecated",
  "readOnly",
  "writeOnly",
]);
const ANNOTATIONS = new Set([
  "title",
  "description",
  "default",
  "examples",
  "$comment",
  "deprecated",
  "readOnly",
  "writeOnly",
]);

/** A failed check: what broke and at which written reference. */
export interface SchemaFailure {
  readonly message: string;
  readonly reference: string;
}

/**
 * Which sub-schema checks each write of a commit: a compiled sub-schema pointer, `undefined` (whole state),
 * `null` (unconstrained); `items` marks a push/concat checked item by item against the array's `items`.
 */
export type SchemaPlan = readonly {
  readonly write: StateWrite;
  readonly pointer: string | null | undefined;
  readonly items: boolean;
}[];

/** Validates state writes against a thread's `stateSchema` (ajv 2020, compiled once, sub-schemas cached). */
export interface StateValidator {
  /** Plans the checks of one commit against the state before it (the write walk needs the old shape). */
  plan(before: JsonObject, writes: readonly StateWrite[]): SchemaPlan;
  /** Runs planned checks against the state after the commit. */
  verify(plan: SchemaPlan, after: JsonObject): SchemaFailure | undefined;
  /**
   * Checks a whole state (eviction: what is left must still match). Undefined when it matches, else where
   * the first problem is: the path of the failing value, or of the missing property for `required`.
   */
  violation(state: JsonObject): Path | undefined;
}

type SchemaNode = { readonly [key: string]: unknown };
const isNode = (value: unknown): value is SchemaNode =>
  typeof value === "object" && value !== null && !Array.isArray(value);
const escapePointer = (segment: string): string => segment.replaceAll("~", "~0").replaceAll("/", "~1");

function lookupPointer(root: SchemaNode, pointer: string): { node: SchemaNode; pointer: string } | undefined {
  let node: unknown = root;
  for (const raw of pointer.split("/").slice(1)) {
    const key = raw.replaceAll("~1", "/").replaceAll("~0", "~");
    if (!isNode(node) || !Object.hasOwn(node, key)) return undefined;
    node = node[key];
  }
  return isNode(node) ? { node, pointer } : undefined;
}

function valueAt(root: JsonValue, path: Path): { exists: boolean; value: JsonValue | undefined } {
  let current: JsonValue | undefined = root;
  for (const segment of path) {
    if (typeof current !== "object" || current === null || !Object.hasOwn(current, segment)) {
      return { exists: false, value: undefined };
    }
    current = (current as Record<string, JsonValue>)[segment as string];
  }
  return { exists: true, value: current };
}

/**
 * Finds the sub-schema that governs the value at `path`, following `properties`, `additionalProperties`,
 * `items` and local `$ref`s. Returns undefined when the location needs the whole-state check (a keyword the
 * walk cannot reason about, or an ancestor the write created), and `null` when nothing constrains it.
 */
function locateSchema(root: SchemaNode, path: Path, before: JsonObject): string | null | undefined {
  let located: { node: SchemaNode; pointer: string } | undefined = { node: root, pointer: "" };
  for (let depth = 0; depth < path.length; depth++) {
    located = deref(root, located);
    if (located === undefined) return undefined;
    const { node, pointer } = located;
    if (Object.keys(node).some((key) => !SAFE_KEYWORDS.has(key))) return undefined;
    if (depth > 0 && !valueAt(before, path.slice(0, depth)).exists) return undefined;
    const segment = path[depth]!;
    if (typeof segment === "number") {
      if (node.items === true) return null;
      if (!isNode(node.items)) return node.items === undefined && node.type === undefined ? null : undefined;
      located = { node: node.items, pointer: `${pointer}/items` };
      continue;
    }
    const properties = node.properties;
    const named = isNode(properties) && Object.hasOwn(properties, segment) ? properties[segment] : undefined;
    // a literal `true` sub-schema allows anything: nothing to check, not a reason for the whole-state check
    if (named === true || (named === undefined && node.additionalProperties === true)) return null;
    if (isNode(named)) {
      located = { node: named, pointer: `${pointer}/properties/${escapePointer(segment)}` };
    } else if (named === undefined && isNode(node.additionalProperties)) {
      located = { node: node.additionalProperties, pointer: `${pointer}/additionalProperties` };
    } else if (named !== undefined) {
      return undefined;
    } else if (
      node.additionalProperties === undefined &&
      node.type === undefined &&
      properties === undefined
    ) {
      return null;
    } else return node.additionalProperties === undefined ? null : undefined;
  }
  return deref(root, located)?.pointer;
}

function deref(root: SchemaNode, located: { node: SchemaNode; pointer: string } | undefined) {
  let current = located;
  for (let hops = 0; current !== undefined && typeof current.node.$ref === "string" && hops < 32; hops++) {
    const ref: string = current.node.$ref as string;
    if (!ref.startsWith("#")) return undefined;
    if (Object.keys(current.node).some((key) => key !== "$ref" && !ANNOTATIONS.has(key))) return undefined;
    current = lookupPointer(root, ref.slice(1));
  }
  return current;
}

function describeErrors(errors: readonly ErrorObject[] | null | undefined, prefix: string): string {
  const first = errors?.[0];
  if (first === undefined) return "value does not match the state schema";
  return `${prefix}${first.instancePath} ${first.message ?? "is invalid"}`.trim();
}

/** Where an ajv error is, as a state path (segments as pointer text: compare with `String(segment)`). */
function errorLocation(error: ErrorObject): Path {
  const path: string[] =
    error.instancePath === ""
      ? []
      : error.instancePath
          .split("/")
          .slice(1)
          .map((raw) => raw.replaceAll("~1", "/").replaceAll("~0", "~"));
  const missing = (error.params as { missingProperty?: unknown }).missingProperty;
  if (typeof missing === "string") path.push(missing);
  return path;
}

/** Validators of the schemas compiled last, by canonical JSON, least recently used first. */
const VALIDATORS = new Map<string, StateValidator>();
/** At most this many compiled state schemas are kept (a process has a few: one per engine, usually). */
const MAX_VALIDATORS = 32;

/**
 * The validator of a thread's state schema: compiled once per schema and shared by the threads that have it
 * (a validator holds no thread's data). Compiling costs milliseconds, and a store that drops idle threads
 * (SQLite's `cachedThreads`) loads them again, schema and all. Throws ObeliskError USAGE when the schema
 * itself is invalid.
 */
export function createStateValidator(schema: JsonObject): StateValidator {
  const key = canonicalJson(schema);
  const known = VALIDATORS.get(key);
  if (known !== undefined) {
    VALIDATORS.delete(key);
    VALIDATORS.set(key, known);
    return known;
  }
  // compiled from its own copy: ajv and the schema walks keep reading the schema they were given, and a
  // caller's later change to its object must not reach the threads that share the validator
  const validator = compileStateValidator(JSON.parse(key) as JsonObject);
  VALIDATORS.set(key, validator);
  if (VALIDATORS.size > MAX_VALIDATORS) VALIDATORS.delete(VALIDATORS.keys().next().value as string);
  return validator;
}

/** Compiles a thread's state schema. Throws ObeliskError USAGE when the schema itself is invalid. */
function compileStateValidator(schema: JsonObject): StateValidator {
  // patterns on re2js (linear in the value, which a plan chose: decision 0057, Amended)
  const ajv = new Ajv2020({
    strict: false,
    allErrors: false,
    strictTuples: false,
    code: { regExp: stateRegExp },
    logger: false, // a format ajv does not know (zod's "ends_with") is not checked, and not printed either
  });
  addFormats(ajv);
  ajv.addFormat("url", isUrlFormat); // ajv-formats' regex is cubic in the string; same verdicts, linear (0105)
  let whole: ValidateFunction;
  try {
    ajv.addSchema(schema, ROOT_KEY);
    whole = ajv.getSchema(ROOT_KEY)!;
  } catch (error) {
    throw new ObeliskError("USAGE", stateSchemaProblem(schema, error), { cause: error });
  }
  // a root `$async` makes each check a promise (truthy: "valid") that rejects later, unhandled
  if ("$async" in whole && whole.$async === true)
    throw new ObeliskError("USAGE", "invalid stateSchema: an async schema ($async: true)", {
      hint: "state writes are checked synchronously: remove $async",
    });
  const cache = new Map<string, ValidateFunction | undefined>();
  const compiled = (pointer: string): ValidateFunction | undefined => {
    if (!cache.has(pointer)) {
      try {
        cache.set(pointer, ajv.getSchema(`${ROOT_KEY}#${pointer}`));
      } catch {
        cache.set(pointer, undefined);
      }
    }
    return cache.get(pointer);
  };
  const planOne = (before: JsonObject, write: StateWrite): SchemaPlan[number] => {
    if (write.method === "push" || write.method === "concat") {
      const items = locateSchema(schema, [...write.path, 0], before);
      if (items !== undefined && (items === null || compiled(items) !== undefined))
        return { write, pointer: items, items: true };
    }
    return { write, pointer: locateSchema(schema, write.path, before), items: false };
  };
  const verifyOne = (entry: SchemaPlan[number], after: JsonObject): SchemaFailure | undefined => {
    const { write, pointer } = entry;
    if (pointer === null) return undefined;
    const validate = pointer === undefined ? undefined : compiled(pointer);
    if (validate === undefined) {
      if (whole(after)) return undefined;
      return { message: describeErrors(whole.errors, "†state"), reference: write.reference };
    }
    const values = !entry.items
      ? [valueAt(after, write.path).value]
      : write.method === "push"
        ? [write.value]
        : (write.value as readonly JsonValue[]);
    for (const value of values) {
      if (!validate(value))
        return { message: describeErrors(validate.errors, write.reference), reference: write.reference };
    }
    return undefined;
  };
  return {
    plan: (before, writes) => writes.map((write) => planOne(before, write)),
    violation(state) {
      if (whole(state)) return undefined;
      const first = whole.errors?.[0];
      return first === undefined ? [] : errorLocation(first);
    },
    verify(plan, after) {
      for (const entry of plan) {
        const failed = verifyOne(entry, after);
        if (failed !== undefined) return failed;
      }
      return undefined;
    },
  };
}
