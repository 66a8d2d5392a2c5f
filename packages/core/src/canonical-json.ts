import { setOwn } from "./json-container.js";
import { ObeliskError } from "./obelisk-error.js";

type Task =
  | { readonly text: string }
  | { readonly value: unknown; readonly inArray: boolean }
  | { readonly leave: object };

/** The JSON text of a primitive, or undefined when JSON omits it (undefined, functions, symbols). */
function primitiveJson(value: unknown, inArray: boolean): string | undefined {
  switch (typeof value) {
    case "string":
      return JSON.stringify(value);
    case "number":
      return Number.isFinite(value) ? JSON.stringify(value) : "null";
    case "boolean":
      return value ? "true" : "false";
    case "bigint":
      throw new ObeliskError("USAGE", "canonicalJson: a BigInt is not JSON");
    default:
      return inArray ? "null" : undefined;
  }
}

/** Whether a property value is written at all (JSON drops undefined, functions and symbols in objects). */
function isWritten(value: unknown): boolean {
  return value !== undefined && typeof value !== "function" && typeof value !== "symbol";
}

/** Pushes the tasks that write an object or array (in reverse, for a stack). */
function pushContainer(value: object, tasks: Task[]): void {
  tasks.push({ leave: value });
  if (Array.isArray(value)) {
    tasks.push({ text: "]" });
    for (let index = value.length - 1; index >= 0; index--) {
      tasks.push({ value: value[index], inArray: true });
      if (index > 0) tasks.push({ text: "," });
    }
    tasks.push({ text: "[" });
    return;
  }
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record)
    .filter((key) => isWritten(record[key]))
    .sort();
  tasks.push({ text: "}" });
  for (let index = keys.length - 1; index >= 0; index--) {
    const key = keys[index]!;
    tasks.push({ value: record[key], inArray: false });
    tasks.push({ text: `${index > 0 ? "," : ""}${JSON.stringify(key)}:` });
  }
  tasks.push({ text: "{" });
}

/**
 * Canonical JSON (SPEC §6): object keys sorted by UTF-16 code units, no whitespace, strings and numbers
 * as JSON.stringify writes them, undefined properties dropped, `toJSON` honoured. Iterative: any depth.
 * Throws an ObeliskError (USAGE) on a cycle or a BigInt; undefined at the top level gives `null`.
 */
export function canonicalJson(value: unknown): string {
  // Native JSON.stringify with keys put in order writes the same text with no intermediate strings; it
  // throws on a BigInt, a cycle or a very deep value, which the paths below report or handle at any depth.
  // Values already in canonical order (most parameters) are written by native JSON.stringify. Long
  // arrays of out-of-order objects (plans) too, with a replacer that sorts: it costs a call per value,
  // which only pays off against the JS writer for long lists (measured: a 10k-call plan 1.5-2x faster,
  // small objects slower). A BigInt, a cycle or a very deep value makes JSON.stringify throw; the JS
  // writer then reports it or handles it at any depth.
  try {
    if (inOrder(value, 0)) return JSON.stringify(value) ?? "null";
    if (Array.isArray(value) && value.length >= LONG_LIST) {
      const listed = listedJson(value);
      if (listed !== undefined) return listed;
      const items = sortedItems(value);
      return items === undefined ? JSON.stringify(value, withSortedKeys) : JSON.stringify(items);
    }
  } catch {
    // fall through to the JS writer
  }
  const fast = recursiveJson(value, true, 0);
  return fast === TOO_DEEP ? iterativeJson(value) : (fast ?? "null");
}

/** Arrays at least this long are worth the sorting replacer. */
const LONG_LIST = 64;
/** Thrown by the replacer for an object it cannot reorder (the JS writer takes over). */
const UNORDERABLE = new Error("canonicalJson: keys a copy cannot order");

/**
 * True when plain JSON.stringify already writes `value` canonically: every object's keys in order, no
 * `toJSON`, no boxed primitive, and shallow enough to check by recursion (else the replacer decides).
 */
function inOrder(value: unknown, depth: number): boolean {
  if (typeof value !== "object" || value === null) return true;
  if (depth === MAX_RECURSION) return false;
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) if (!inOrder(value[index], depth + 1)) return false;
    return true;
  }
  if (typeof (value as { toJSON?: unknown }).toJSON === "function" || isBoxedPrimitive(value)) return false;
  const record = value as Record<string, unknown>;
  let previous: string | undefined;
  for (const key of Object.keys(record)) {
    if (previous !== undefined && previous > key) return false;
    if (!inOrder(record[key], depth + 1)) return false;
    previous = key;
  }
  return true;
}

/** `new Number(1)` and kin: JSON.stringify would unwrap them; canonical JSON writes their own keys (`{}`). */
function isBoxedPrimitive(value: object): boolean {
  return (
    value instanceof Number || value instanceof String || value instanceof Boolean || value instanceof BigInt
  );
}

/**
 * The items of a long list with each object among them replaced by a copy with its keys in order, when
 * that is all the list needs (the objects' values already canonical, no `toJSON`, no index-like key to
 * reorder): native JSON.stringify then writes the list canonically without calling a replacer for every
 * value (a plan's calls: flat objects, keys out of order). Undefined when the replacer is needed.
 */
function sortedItems(list: readonly unknown[]): unknown[] | undefined {
  if (typeof (list as { toJSON?: unknown }).toJSON === "function") return undefined;
  const items: unknown[] = new Array(list.length);
  for (let index = 0; index < list.length; index++) {
    const item = list[index];
    if (typeof item !== "object" || item === null || Array.isArray(item)) {
      if (!inOrder(item, 1)) return undefined;
      items[index] = item;
      continue;
    }
    if (typeof (item as { toJSON?: unknown }).toJSON === "function" || isBoxedPrimitive(item))
      return undefined;
    const record = item as Record<string, unknown>;
    const keys = Object.keys(record);
    let sorted = true;
    for (let at = 0; at < keys.length; at++) {
      const key = keys[at] as string;
      if (!inOrder(record[key], 2)) return undefined;
      if (at > 0 && (keys[at - 1] as string) > key) sorted = false;
    }
    if (sorted) {
      items[index] = item;
      continue;
    }
    // A copy cannot hold index-like keys ("0", "10") after others: objects list them first, by number.
    for (const key of keys) if (key.charCodeAt(0) <= 57 && key.charCodeAt(0) >= 48) return undefined;
    sortKeys(keys);
    const copy: Record<string, unknown> = {};
    for (const key of keys) setOwn(copy, key, record[key]);
    items[index] = copy;
  }
  return items;
}

/** Plain objects met by `gatherKeys`, and how many enumerable keys each has (scratch of `listedJson`). */
const GATHERED: object[] = [];
const KEY_COUNTS: number[] = [];

/**
 * Adds the keys of every object in `value` to `keys` (and the object to GATHERED): false when some object
 * is not a plain one (another prototype, `toJSON`, an inherited enumerable key, a `__proto__` key) or the
 * value is too deep (maybe a cycle).
 */
function gatherKeys(value: unknown, keys: Set<string>, depth: number): boolean {
  if (typeof value !== "object" || value === null) return true;
  if (depth >= MAX_RECURSION || typeof (value as { toJSON?: unknown }).toJSON === "function") return false;
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++)
      if (!gatherKeys(value[index], keys, depth + 1)) return false;
    return true;
  }
  const prototype = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return false;
  const record = value as Record<string, unknown>;
  let count = 0;
  for (const key in record) {
    if (key === "__proto__" || !Object.hasOwn(record, key)) return false;
    keys.add(key);
    count++;
    if (!gatherKeys(record[key], keys, depth + 1)) return false;
  }
  GATHERED.push(record);
  KEY_COUNTS.push(count);
  return true;
}

/**
 * A long list of plain objects written by native JSON.stringify with the sorted keys of all its objects
 * as the property list: every object is written with its keys in that order, which is canonical order,
 * without a sorted copy of each object (a plan's calls: flat objects, keys out of order). Undefined when
 * some object is not plain, or has an own non-enumerable property named like a listed key (which the
 * list would write).
 */
function listedJson(list: readonly unknown[]): string | undefined {
  const keys = new Set<string>();
  try {
    for (let index = 0; index < list.length; index++) if (!gatherKeys(list[index], keys, 1)) return undefined;
    const listed = sortKeys([...keys]);
    for (let at = 0; at < GATHERED.length; at++) {
      const record = GATHERED[at] as object;
      let own = 0;
      for (let k = 0; k < listed.length; k++) if (Object.hasOwn(record, listed[k] as string)) own++;
      if (own !== KEY_COUNTS[at]) return undefined;
    }
    return JSON.stringify(list, listed);
  } finally {
    // Nothing of the list stays reachable from the scratch lists.
    while (GATHERED.length > 0) GATHERED.pop();
    while (KEY_COUNTS.length > 0) KEY_COUNTS.pop();
  }
}

/** JSON.stringify replacer: an object whose own keys are out of order is written from a sorted copy. */
function withSortedKeys(_key: string, value: unknown): unknown {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return value;
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record);
  let sorted = true;
  for (let index = 1; index < keys.length; index++) {
    if ((keys[index - 1] as string) > (keys[index] as string)) {
      sorted = false;
      break;
    }
  }
  if (sorted && !isBoxedPrimitive(value)) return value;
  // A copy cannot hold index-like keys ("0", "10") after others: objects list them first, by number.
  for (const key of keys) if (key.charCodeAt(0) <= 57 && key.charCodeAt(0) >= 48) throw UNORDERABLE;
  sortKeys(keys);
  const copy: Record<string, unknown> = {};
  for (const key of keys) setOwn(copy, key, record[key]);
  return copy;
}

const TOO_DEEP: unique symbol = Symbol("too deep");
const MAX_RECURSION = 200;

/** JSON texts of object keys seen so far (plans repeat a handful of keys thousands of times). */
const keyTexts = new Map<string, string>();
const MAX_KEY_TEXTS = 4096;

function keyText(key: string): string {
  let text = keyTexts.get(key);
  if (text === undefined) {
    text = JSON.stringify(key);
    if (keyTexts.size < MAX_KEY_TEXTS) keyTexts.set(key, text);
  }
  return text;
}

/**
 * Sorts keys in place by UTF-16 code units (what `Array.prototype.sort` does by default). Objects have a
 * handful of keys: an insertion sort does not allocate, where the built-in sort copies into a work array.
 */
function sortKeys(keys: string[]): string[] {
  if (keys.length > 16) return keys.sort();
  for (let index = 1; index < keys.length; index++) {
    const key = keys[index] as string;
    let at = index - 1;
    while (at >= 0 && (keys[at] as string) > key) {
      keys[at + 1] = keys[at] as string;
      at--;
    }
    keys[at + 1] = key;
  }
  return keys;
}

/** The written keys of an object, sorted by UTF-16 code units (most objects come sorted or nearly). */
function sortedKeys(record: Record<string, unknown>): string[] {
  const keys = Object.keys(record);
  let sorted = true;
  let written = 0;
  for (let index = 0; index < keys.length; index++) {
    const key = keys[index] as string;
    if (!isWritten(record[key])) continue;
    if (written > 0 && (keys[written - 1] as string) > key) sorted = false;
    keys[written++] = key;
  }
  keys.length = written;
  return sorted ? keys : sortKeys(keys);
}

/**
 * Fast path (the common, shallow case): plain recursion; gives up with TOO_DEEP past MAX_RECURSION levels.
 * A cycle also ends in TOO_DEEP, and the iterative path then reports it.
 */
function recursiveJson(
  value: unknown,
  inArray: boolean,
  depth: number,
): string | undefined | typeof TOO_DEEP {
  let current = value;
  if (
    typeof current === "object" &&
    current !== null &&
    typeof (current as { toJSON?: unknown }).toJSON === "function"
  )
    current = (current as { toJSON: () => unknown }).toJSON();
  if (typeof current !== "object" || current === null)
    return current === null ? "null" : (primitiveJson(current, inArray) ?? (inArray ? "null" : undefined));
  if (depth >= MAX_RECURSION) return TOO_DEEP;
  let text: string;
  if (Array.isArray(current)) {
    text = "[";
    for (let index = 0; index < current.length; index++) {
      const item = recursiveJson(current[index], true, depth + 1);
      if (item === TOO_DEEP) return TOO_DEEP;
      text += index > 0 ? `,${item ?? "null"}` : (item ?? "null");
    }
    text += "]";
  } else {
    const record = current as Record<string, unknown>;
    const keys = sortedKeys(record);
    text = "{";
    for (let index = 0; index < keys.length; index++) {
      const key = keys[index] as string;
      const item = recursiveJson(record[key], false, depth + 1);
      if (item === TOO_DEEP) return TOO_DEEP;
      text += `${index > 0 ? "," : ""}${keyText(key)}:${item ?? "null"}`;
    }
    text += "}";
  }
  return text;
}

/** The general path: an explicit stack, any depth. */
function iterativeJson(value: unknown): string {
  const parts: string[] = [];
  const active = new Set<object>();
  const tasks: Task[] = [{ value, inArray: true }];
  while (tasks.length > 0) {
    const task = tasks.pop()!;
    if ("text" in task) parts.push(task.text);
    else if ("leave" in task) active.delete(task.leave);
    else {
      let current = task.value;
      if (
        typeof current === "object" &&
        current !== null &&
        typeof (current as { toJSON?: unknown }).toJSON === "function"
      ) {
        current = (current as { toJSON: () => unknown }).toJSON();
      }
      if (typeof current !== "object" || current === null) {
        parts.push(current === null ? "null" : (primitiveJson(current, task.inArray) ?? "null"));
        continue;
      }
      if (active.has(current)) throw new ObeliskError("USAGE", "canonicalJson: the value contains a cycle");
      active.add(current);
      pushContainer(current, tasks);
    }
  }
  return parts.join("");
}
