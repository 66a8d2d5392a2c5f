import type { JsonObject, JsonValue } from "@obelisk/core";
import type { StrictSchemaDeviation } from "./strict-deviation.js";
import { isPlainObject } from "./to-json-schema.js";

/** A schema object being built. */
export type Mutable = Record<string, JsonValue>;

/** Where in a tool's schema a strict schema comes from. */
export interface SchemaOrigin {
  readonly tool: string;
  readonly schema: "input" | "output" | "outputPath";
  /** JSON Pointer into that schema. */
  readonly pointer: string;
}

/** Where in a tool's schema a property is (absent for Obelisk's meta-properties). */
export interface PendingPlace extends SchemaOrigin {
  /** Whether the property also takes a reference string. */
  readonly references: boolean;
}

/** A property the strict schema requires although its schema (the tool's) leaves it optional. */
export interface PendingOptional {
  /** The strict object schema holding the property. */
  readonly object: Mutable;
  readonly key: string;
  /** The tool's schema it comes from, to report what making it nullable costs. */
  readonly place?: PendingPlace;
}

/** A strict plan schema under construction: its `$defs`, what it deviates in, and what `fromStrictPlan` needs. */
export interface StrictBuild {
  readonly defs: Mutable;
  readonly deviations: StrictSchemaDeviation[];
  /** Optional properties, made nullable (`null` meaning absent) once every schema is built. */
  readonly pending: PendingOptional[];
  /** Strict object schema → its properties whose `null` means "absent". */
  readonly absent: WeakMap<object, Set<string>>;
  /** Converted `$ref` targets: `tool, schema, references, pointer` → their `$defs` key. */
  readonly targets: Map<string, string>;
  /** Fixed definitions by purpose (`json`: any JSON value, `reference`: a reference string). */
  readonly shared: Map<string, string>;
  /** Strict object and enum schemas → where in a tool's schema each comes from (to say where a limit is passed). */
  readonly origins: WeakMap<object, SchemaOrigin>;
}

/** An empty build. */
export function createStrictBuild(): StrictBuild {
  return {
    defs: {},
    deviations: [],
    pending: [],
    absent: new WeakMap(),
    targets: new Map(),
    shared: new Map(),
    origins: new WeakMap(),
  };
}

/** Defines `key` as an own data property (a key `__proto__` included, which `=` would not define). */
export function setOwn(target: Mutable, key: string, value: JsonValue): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/** `target[key]` when it is an own property, else undefined. */
export function getOwn(target: JsonObject, key: string): JsonValue | undefined {
  return Object.hasOwn(target, key) ? target[key] : undefined;
}

/** A `$defs` key not taken yet: `base` made of name characters, with `_2`, `_3`… on a clash. */
export function allocateDefKey(build: StrictBuild, base: string): string {
  const clean = base.replace(/[^A-Za-z0-9_-]/g, "_") || "def";
  let key = clean;
  for (let n = 2; Object.hasOwn(build.defs, key); n += 1) key = `${clean}_${n}`;
  build.defs[key] = null;
  return key;
}

/** A `$ref` to a key of the plan schema's `$defs`. */
export function defRef(key: string): JsonObject {
  return { $ref: `#/$defs/${key}` };
}

/** The `$defs` key a `$ref` of the strict schema names, or undefined for another reference. */
export function refDefKey(ref: JsonValue | undefined): string | undefined {
  return typeof ref === "string" && ref.startsWith("#/$defs/") ? ref.slice("#/$defs/".length) : undefined;
}

/** The schema a strict schema stands for: a `$ref` followed into `defs` (cycles stop), else itself. */
export function resolveStrict(defs: JsonObject, schema: JsonValue | undefined): JsonObject | undefined {
  let current = schema;
  for (let hops = 0; hops < 64; hops += 1) {
    if (!isPlainObject(current)) return undefined;
    const key = refDefKey(current.$ref);
    if (key === undefined) return current as JsonObject;
    current = getOwn(defs, key);
  }
  return undefined;
}

/** An `anyOf` of the branches (nested plain `anyOf`s flattened), or the one branch itself. */
export function anyOfSchema(branches: readonly JsonValue[]): Mutable {
  const flat: JsonValue[] = [];
  for (const branch of branches) {
    if (isPlainObject(branch) && Array.isArray(branch.anyOf) && Object.keys(branch).length === 1)
      flat.push(...(branch.anyOf as JsonValue[]));
    else flat.push(branch);
  }
  const unique = flat.filter(
    (branch, i) => flat.findIndex((other) => JSON.stringify(other) === JSON.stringify(branch)) === i,
  );
  // The one branch itself, not a copy: an object schema is known by identity (`absent`, `pending`).
  return unique.length === 1 && isPlainObject(unique[0]) ? (unique[0] as Mutable) : { anyOf: unique };
}

/** The def key of a fixed definition, created by `make` the first time. */
export function sharedDef(build: StrictBuild, name: string, make: (key: string) => JsonValue): string {
  const known = build.shared.get(name);
  if (known !== undefined) return known;
  const key = allocateDefKey(build, name);
  build.shared.set(name, key);
  build.defs[key] = make(key);
  return key;
}
