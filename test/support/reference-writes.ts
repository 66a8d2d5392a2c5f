import type { JsonValue } from "@obelisk/core";
import { canonical, type Method, type Path } from "./model-plan.js";

/** Reading and writing paths for the reference interpreter, from SPEC §2 (reading) and §3 (writing). */

type JsonObject = Record<string, JsonValue>;

const isObject = (value: unknown): value is JsonObject =>
  value !== null && typeof value === "object" && !Array.isArray(value);
const equal = (a: unknown, b: unknown) => canonical(a) === canonical(b);

/** The value at a path: own properties; a negative index counts from the end of an array (SPEC §2). */
export function getAt(root: unknown, path: Path): { found: true; value: JsonValue } | { found: false } {
  let current: unknown = root;
  for (const segment of path) {
    if (Array.isArray(current) && typeof segment === "number") {
      const index = segment < 0 ? current.length + segment : segment;
      if (index < 0 || index >= current.length) return { found: false };
      current = current[index];
    } else if (isObject(current) && Object.hasOwn(current, String(segment)))
      current = current[String(segment)];
    else return { found: false };
  }
  return { found: true, value: current as JsonValue };
}

/** Deep merge of objects; anything else in the value replaces what is there. */
function deepMerge(target: JsonValue, value: JsonValue): JsonValue {
  if (!isObject(target) || !isObject(value)) return value;
  const merged: JsonObject = { ...target };
  for (const [key, item] of Object.entries(value))
    merged[key] = Object.hasOwn(merged, key) ? deepMerge(merged[key] as JsonValue, item) : item;
  return merged;
}

/** `_outputMethod` on what the target holds (SPEC §3); `undefined` when the value cannot combine with it. */
function combine(current: JsonValue | undefined, method: Method, value: JsonValue): JsonValue | undefined {
  switch (method) {
    case "set":
      return value;
    case "merge":
      if (current === undefined) return value;
      return isObject(current) && isObject(value) ? deepMerge(current, value) : undefined;
    case "assign":
      if (!isObject(value)) return undefined;
      if (current === undefined) return { ...value };
      return isObject(current) ? { ...current, ...value } : undefined;
    case "push":
      if (current === undefined) return [value];
      return Array.isArray(current) ? [...current, value] : undefined;
    case "concat":
      if (!Array.isArray(value)) return undefined;
      if (current === undefined) return [...value];
      return Array.isArray(current) ? [...current, ...value] : undefined;
  }
}

/**
 * Writes `value` to every target (a fan-out), creating intermediate objects; `undefined` when a target
 * cannot take it (writing through a non-object value fails the call, and nothing is written).
 */
export function applyWrite(
  state: JsonObject,
  targets: readonly Path[],
  method: Method,
  value: JsonValue,
): JsonObject | undefined {
  const next = structuredClone(state);
  for (const target of targets) {
    let parent: JsonObject = next;
    for (const segment of target.slice(0, -1)) {
      const key = String(segment);
      if (!Object.hasOwn(parent, key)) parent[key] = {};
      const child = parent[key];
      if (!isObject(child)) return undefined;
      parent = child;
    }
    const last = String(target.at(-1));
    const combined = combine(
      Object.hasOwn(parent, last) ? parent[last] : undefined,
      method,
      structuredClone(value),
    );
    if (combined === undefined) return undefined;
    parent[last] = combined;
  }
  return next;
}

/** Whether a part of the recorded object is still there, key by key (what a deep merge leaves). */
function contains(current: unknown, value: unknown): boolean {
  if (isObject(current) && isObject(value))
    return Object.entries(value).every(
      ([key, item]) => Object.hasOwn(current, key) && contains(current[key], item),
    );
  return equal(current, value);
}

/** SPEC §7: whether a satisfied call's target still holds its recorded outcome (else it is re-applied). */
export function holds(at: ReturnType<typeof getAt>, value: JsonValue, method: Method): boolean {
  if (!at.found) return false;
  const current = at.value;
  switch (method) {
    case "set":
      return equal(current, value);
    case "merge":
      return contains(current, value);
    case "assign":
      return (
        isObject(current) && isObject(value) && Object.entries(value).every(([k, v]) => equal(current[k], v))
      );
    case "push":
      return Array.isArray(current) && current.some((item) => equal(item, value));
    case "concat":
      return (
        Array.isArray(current) &&
        Array.isArray(value) &&
        value.every((v) => current.some((item) => equal(item, v)))
      );
  }
}
