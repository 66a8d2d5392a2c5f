import type { JsonArray, JsonValue, Path, ThreadId } from "@obelisk/core";
import { codePointLength, codePointSlice, formatReference, getAtPath, ObeliskError } from "@obelisk/core";
import type { StateStore, Tombstone } from "../store-types.js";
import { parseStoredReference } from "./parse-stored-reference.js";

/** Options of {@link getValue}: ask for one page of an array or string. */
export interface GetValueOptions {
  /** First item / character (code point) of the page (default 0). */
  readonly offset?: number;
  /** Page size (default: the rest). */
  readonly limit?: number;
}

/** What {@link getValue} found: nothing, the whole value, or one page of an array (`items`) or string (`text`). */
export type GetValueResult =
  | { readonly found: false }
  | { readonly found: true; readonly value: JsonValue }
  | {
      readonly found: true;
      readonly items: JsonArray;
      readonly offset: number;
      readonly limit: number;
      readonly total: number;
    }
  | {
      readonly found: true;
      readonly text: string;
      readonly offset: number;
      readonly limit: number;
      readonly total: number;
    };

const evicted = (reference: string, tombstone: Tombstone): ObeliskError =>
  new ObeliskError(
    "REF_EVICTED",
    `${reference} was evicted (${tombstone.reason}) at ${tombstone.evictedAt}`,
    {
      data: { reference: tombstone.reference, evictedAt: tombstone.evictedAt, reason: tombstone.reason },
    },
  );

const checkPaging = (name: string, value: number | undefined): void => {
  if (value !== undefined && (!Number.isInteger(value) || value < 0)) {
    throw new ObeliskError("USAGE", `${name} must be a non-negative integer, got ${value}`);
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

function page(value: JsonValue, options: GetValueOptions): GetValueResult {
  if (options.offset === undefined && options.limit === undefined) return { found: true, value };
  if (!Array.isArray(value) && typeof value !== "string") return { found: true, value };
  // A string pages by characters (code points), so a page never cuts an emoji in half.
  const total = typeof value === "string" ? codePointLength(value) : value.length;
  const offset = Math.min(options.offset ?? 0, total);
  const limit = Math.min(options.limit ?? total - offset, total - offset);
  if (typeof value === "string")
    return { found: true, text: codePointSlice(value, offset, limit), offset, limit, total };
  return { found: true, items: (value as JsonArray).slice(offset, offset + limit), offset, limit, total };
}

/**
 * Reads a stored value by reference (`†state…`, `†calls.<id>…`): the value, or one page of an array or
 * string with its total length. A missing path is `{ found: false }` (a stored `null` is found); an evicted
 * one throws ObeliskError REF_EVICTED with `data: { reference, evictedAt, reason }`. Expired entries are
 * evicted first (expiry is checked against the store clock on read).
 */
export async function getValue(
  store: StateStore,
  threadId: ThreadId,
  reference: string,
  options: GetValueOptions = {},
): Promise<GetValueResult> {
  checkPaging("offset", options.offset);
  checkPaging("limit", options.limit);
  const { kind, path, text } = parseStoredReference(reference);
  await store.expireStale(threadId);
  let root: JsonValue | undefined;
  let below: Path = path;
  if (kind === "calls") {
    const output = await store.getCallOutput(threadId, String(path[0]));
    if (output !== undefined && !("value" in output)) throw evicted(text, output);
    root = output?.value;
    below = path.slice(1);
  } else root = await store.readState(threadId);
  const lookup = getAtPath(root, below);
  if (lookup.found) return page(lookup.value, options);
  const tombstone = await findTombstone(store, threadId, kind, path);
  if (tombstone !== undefined) throw evicted(text, tombstone);
  return { found: false };
}
