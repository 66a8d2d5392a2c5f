import type { JsonValue } from "@obelisk/core";

/** Containers deeper than this, or more nodes than this, are left to the copy (which also finds cycles). */
const MAX_DEPTH = 64;
const MAX_NODES = 4096;
/** Most UTF-8 bytes of a JSON number's text (`-1.2345678901234567e-308`). */
const NUMBER_BYTES = 25;

/** `Object.prototype.__lookupGetter__`: finds an accessor without allocating a property descriptor. */
const lookupGetter = (Object.prototype as unknown as { __lookupGetter__(key: string): unknown })
  .__lookupGetter__;

/** Nodes and an upper bound of the JSON size seen so far by {@link isFrozenJson}. */
interface Budget {
  nodes: number;
  bytes: number;
}

/**
 * True when `value` is already what `toJsonValue` would copy it to: deep-frozen plain JSON (arrays and
 * `Object.prototype` objects of data properties, finite numbers other than -0, no undefined member, no
 * `__proto__` key, no own `toJSON`), small enough to check quickly, and provably within `maxBytes` of
 * JSON (each string counted at its worst escaping). Such a value can be kept instead of copied: nobody
 * can change it, and its copy would hold the same members and serialise to the same text. (Hidden members
 * other than `toJSON`, non-enumerable or symbol-keyed, are not looked for: JSON never shows them, a copy
 * would drop them.) Anything else answers false and the caller copies, which gives the precise verdict.
 * Allocates nothing but its counter.
 */
export function isFrozenJson(value: JsonValue, maxBytes: number): boolean {
  const bound = frozenJsonBound(value);
  return bound >= 0 && bound <= maxBytes;
}

/**
 * The upper bound of the JSON size {@link isFrozenJson} proves for a value that is deep-frozen plain JSON,
 * small enough to check quickly; -1 for any other. One walk answers for several bounds (a record's
 * parameters are held to the value limit and to `recordParamsBytes`).
 */
export function frozenJsonBound(value: JsonValue): number {
  const budget: Budget = { nodes: 0, bytes: 0 };
  return frozenJsonNode(value, 1, budget) ? budget.bytes : -1;
}

function frozenJsonNode(value: unknown, depth: number, budget: Budget): boolean {
  if (++budget.nodes > MAX_NODES) return false;
  switch (typeof value) {
    case "string":
      budget.bytes += value.length * 6 + 2;
      return true;
    case "boolean":
      budget.bytes += 5;
      return true;
    case "number":
      budget.bytes += NUMBER_BYTES;
      return Number.isFinite(value) && !Object.is(value, -0);
    case "object":
      break;
    default:
      return false;
  }
  if (value === null) {
    budget.bytes += 4;
    return true;
  }
  if (depth > MAX_DEPTH || !Object.isFrozen(value)) return false;
  // an own `toJSON`, even a hidden one, could change what JSON.stringify writes: left to the copy
  if (Object.hasOwn(value, "toJSON")) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  if (proto === Array.prototype) {
    const list = value as readonly unknown[];
    budget.bytes += list.length + 2;
    for (let index = 0; index < list.length; index++) {
      const item = list[index];
      if (item === undefined || !frozenJsonNode(item, depth + 1, budget)) return false;
    }
    return true;
  }
  if (proto !== Object.prototype) return false;
  budget.bytes += 2;
  const record = value as Readonly<Record<string, unknown>>;
  for (const key in record) {
    if (!Object.hasOwn(record, key)) return false;
    if (key === "__proto__" || lookupGetter.call(record, key) !== undefined) return false;
    const member = record[key];
    if (member === undefined) return false;
    budget.bytes += key.length * 6 + 4;
    if (!frozenJsonNode(member, depth + 1, budget)) return false;
  }
  return true;
}
