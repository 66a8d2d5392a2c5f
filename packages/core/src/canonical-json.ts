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
  const fast = recursiveJson(value, true, 0);
  return fast === TOO_DEEP ? iterativeJson(value) : (fast ?? "null");
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
  return sorted ? keys : keys.sort();
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
