import type { JsonArray, JsonObject, JsonValue, Path, ThreadId } from "@obelisk/core";
import {
  DEFAULT_KINDS,
  formatReference,
  getAtPath,
  jsonTypeOf,
  ObeliskError,
  parseReference,
  setOwn,
} from "@obelisk/core";
import type { StateStore, Tombstone } from "../store-types.js";
import { evictionAdvice } from "./eviction-advice.js";
import { objectKeys } from "./object-keys.js";
import { ANY_DEPTH, parseStoredReference, type ReferenceLimits } from "./parse-stored-reference.js";
import type { ReadRetention } from "./read-retention.js";
import { codePointPage } from "./string-pages.js";
import { stateWrittenByCall } from "./written-by.js";

/**
 * Options of {@link getValue}: ask for one page of an array (items), an object (keys, in their stored
 * order) or a string (characters). Given for a number, boolean or null, they are refused (USAGE), never
 * ignored.
 */
export interface GetValueOptions {
  /** First item / key / character (code point) of the page (default 0). */
  readonly offset?: number | undefined;
  /** Page size (default: the rest). */
  readonly limit?: number | undefined;
}

/**
 * What {@link getValue} found (SPEC §8): nothing, the whole value, or one page of an array (`items`), an
 * object (`entries`: its keys from `offset`, in stored order) or a string (`text`). A union on `found`
 * whose members also tell each other apart by `value`, `items`, `entries` and `text` (each member declares
 * the others' as absent), so `if (got.found) got.value` compiles (`undefined` for a page) and
 * `got.items !== undefined` (or `value`, `entries`, `text`) narrows to its member. In a page, `limit` is how
 * many items, keys or characters it holds and `total` how many the value has.
 */
export type GetValueResult =
  | {
      readonly found: false;
      readonly value?: never;
      readonly items?: never;
      readonly entries?: never;
      readonly text?: never;
    }
  | {
      readonly found: true;
      readonly value: JsonValue;
      readonly items?: never;
      readonly entries?: never;
      readonly text?: never;
    }
  | {
      readonly found: true;
      readonly items: JsonArray;
      readonly offset: number;
      readonly limit: number;
      readonly total: number;
      readonly value?: never;
      readonly entries?: never;
      readonly text?: never;
    }
  | {
      readonly found: true;
      readonly entries: JsonObject;
      readonly offset: number;
      readonly limit: number;
      readonly total: number;
      readonly value?: never;
      readonly items?: never;
      readonly text?: never;
    }
  | {
      readonly found: true;
      readonly text: string;
      readonly offset: number;
      readonly limit: number;
      readonly total: number;
      readonly value?: never;
      readonly items?: never;
      readonly entries?: never;
    };

const evicted = (reference: string, tombstone: Tombstone): ObeliskError =>
  new ObeliskError(
    "REF_EVICTED",
    `${reference} was evicted (${tombstone.reason}) at ${tombstone.evictedAt}`,
    {
      data: { reference: tombstone.reference, evictedAt: tombstone.evictedAt, reason: tombstone.reason },
      hint: evictionAdvice(tombstone),
    },
  );

/** A refused paging argument as the message shows it: `-1`, `the string "1"`, `null`, `an object`. */
function describeGiven(value: unknown): string {
  if (typeof value === "number") return String(value);
  if (typeof value === "string") return `the string ${JSON.stringify(value.slice(0, 40))}`;
  if (value === null) return "null";
  return Array.isArray(value) ? "an array" : typeof value === "object" ? "an object" : `a ${typeof value}`;
}

const checkPaging = (name: string, value: unknown): void => {
  if (value !== undefined && (!Number.isInteger(value) || (value as number) < 0)) {
    throw new ObeliskError("USAGE", `${name} must be a non-negative integer, got ${describeGiven(value)}`);
  }
};

/** The tombstone of the reference or of a variable above it (evicting `†state.a` also removed `†state.a.b`). */
async function findTombstone(
  store: StateStore,
  threadId: ThreadId,
  kind: string,
  path: Path,
): Promise<Tombstone | undefined> {
  for (let length = path.length; length > 0; length--) {
    const tombstone = await store.getTombstone(threadId, formatReference(kind, path.slice(0, length)));
    if (tombstone !== undefined) return tombstone;
  }
  return undefined;
}

function page(text: string, value: JsonValue, options: GetValueOptions): GetValueResult {
  if (options.offset === undefined && options.limit === undefined) return { found: true, value };
  // A string pages by characters (code points), so a page never cuts an emoji in half; an object by keys.
  if (typeof value === "string")
    return { found: true, ...codePointPage(value, options.offset, options.limit) };
  if (Array.isArray(value)) {
    const at = window(value.length, options);
    return { found: true, items: value.slice(at.offset, at.offset + at.limit), ...at };
  }
  if (typeof value !== "object" || value === null) return refusePaging(text, value);
  const keys = objectKeys(value);
  const at = window(keys.length, options);
  const entries: JsonObject = {};
  for (let index = at.offset; index < at.offset + at.limit; index++) {
    const key = keys[index] as string;
    setOwn(entries, key, (value as JsonObject)[key] as JsonValue);
  }
  return { found: true, entries, ...at };
}

/** The page `options` ask for within `total` items, keys or characters (clamped to what there is). */
function window(total: number, options: GetValueOptions): { offset: number; limit: number; total: number } {
  const offset = Math.min(options.offset ?? 0, total);
  return { offset, limit: Math.min(options.limit ?? total - offset, total - offset), total };
}

/**
 * offset/limit on a number, boolean or null: refused with USAGE, never silently ignored (a caller asking
 * for a page learns it has none).
 */
function refusePaging(text: string, value: JsonValue): never {
  const type = jsonTypeOf(value);
  const what = type === "null" ? "null" : `a ${type}`;
  throw new ObeliskError(
    "USAGE",
    `${text} is ${what}: offset and limit page arrays (items), objects (keys) and strings (characters) only`,
    { data: { reference: text, type }, hint: "read it without offset and limit" },
  );
}

/**
 * `†calls.<id>` of a call that has an `_outputPath` is not stored there (SPEC §3, one value, one name):
 * REF_UNRESOLVED naming the paths that call wrote, when its variables still say so. Only on this miss
 * path, and over variable metadata (no value is read).
 */
async function outputElsewhere(
  store: StateStore,
  threadId: ThreadId,
  text: string,
  callId: string,
  below: Path,
): Promise<ObeliskError | undefined> {
  const wrote: string[] = [];
  for (const reference of stateWrittenByCall(await store.listVariables(threadId)).get(callId) ?? []) {
    // the store formatted it: any depth (a variable written under a raised maxPathDepth is still named)
    const parsed = parseReference(reference, DEFAULT_KINDS, ANY_DEPTH);
    if (!parsed.ok) continue;
    // the variables under another one the call wrote are shown by it (†state.w covers †state.w.x)
    wrote.push(below.length === 0 ? reference : formatReference("state", [...parsed.value.path, ...below]));
  }
  if (wrote.length === 0) return undefined;
  const shown = wrote.slice(0, 5);
  const more = wrote.length > shown.length ? ` (and ${wrote.length - shown.length} more)` : "";
  return new ObeliskError(
    "REF_UNRESOLVED",
    `${text} is not stored: call ${callId} has an _outputPath, its output was written to ${shown.join(", ")}${more}`,
    { data: { reference: text, callId, wrote: shown }, hint: `read ${shown[0]} instead` },
  );
}

/**
 * Reads a stored value by reference (`†state…`, `†calls.<id>…`): the whole value (no size limit: this is
 * the library API; an LLM reads through the bounded `get_variable` agent tool), or one page of an array,
 * object or string with its total length (offset/limit on a number, boolean or null: USAGE). A missing path is `{ found: false }` (a stored `null` is found);
 * an evicted one throws ObeliskError REF_EVICTED with `data: { reference, evictedAt, reason }`;
 * `†calls.<id>` of a call whose output went to an `_outputPath` throws REF_UNRESOLVED with a hint naming
 * that path (when the call is still the writer of a variable). Expired entries are evicted first (the ages of
 * `retention` when given, else the store's own; expiry
 * is checked against the store clock on read). `maxPathDepth` (the engine's) bounds the reference's depth
 * (default 32; deeper: PLAN_LIMIT).
 */
export async function getValue(
  store: StateStore,
  threadId: ThreadId,
  reference: string,
  options: GetValueOptions & ReferenceLimits & ReadRetention = {},
): Promise<GetValueResult> {
  checkPaging("offset", options.offset);
  checkPaging("limit", options.limit);
  const { kind, path, text } = parseStoredReference(reference, false, options);
  await store.expireStale(threadId, options.retention);
  let root: JsonValue | undefined;
  let below: Path = path;
  if (kind === "calls") {
    const output = await store.getCallOutput(threadId, String(path[0]), options.retention);
    if (output !== undefined && !("value" in output)) throw evicted(text, output);
    root = output?.value;
    below = path.slice(1);
  } else root = await store.readState(threadId);
  const lookup = getAtPath(root, below);
  if (lookup.found) {
    // an evicted array element is a null hole (the later elements keep their places): its tombstone,
    // exactly at this path, tells it from a written null
    const last = path[path.length - 1];
    if (lookup.value === null && kind === "state" && typeof last === "number") {
      // a negative index counts from the end: the tombstone names the element by its position
      const parent = last < 0 ? getAtPath(root, below.slice(0, -1)) : undefined;
      const position =
        parent?.found === true && Array.isArray(parent.value) ? parent.value.length + last : last;
      const hole = await store.getTombstone(
        threadId,
        formatReference("state", [...path.slice(0, -1), position]),
      );
      if (hole !== undefined) throw evicted(text, hole);
    }
    return page(text, lookup.value, options);
  }
  const tombstone = await findTombstone(store, threadId, kind, path);
  if (tombstone !== undefined) throw evicted(text, tombstone);
  if (kind === "calls" && root === undefined) {
    const elsewhere = await outputElsewhere(store, threadId, text, String(path[0]), below);
    if (elsewhere !== undefined) throw elsewhere;
  }
  return { found: false };
}
