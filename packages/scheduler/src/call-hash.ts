import * as crypto from "node:crypto";
import type { CompiledCall } from "@obelisk/compiler";
import {
  canonicalJson,
  type JsonObject,
  type JsonValue,
  MAX_VALUE_DEPTH,
  needsNoJsonEscape,
  setOwn,
} from "@obelisk/core";
import type { CallRecord } from "@obelisk/state";

/** Most distinct methods or tools whose key pieces are kept (a registry has a handful). */
const MAX_PIECES = 256;
/** `{"method":"<method>","outputPath":"` by method: the start of every key without `_output`. */
const heads = new Map<string, string>();
/** `,"tool":"<tool>"}` by tool: the end of every key. */
const tails = new Map<string, string>();

/** The cached piece for `name`, made by `make` when `name` needs no escape; undefined otherwise. */
function piece(cache: Map<string, string>, name: string, make: (name: string) => string): string | undefined {
  let text = cache.get(name);
  if (text === undefined) {
    if (!needsNoJsonEscape(name)) return undefined;
    text = make(name);
    if (cache.size < MAX_PIECES) cache.set(name, text);
  }
  return text;
}

const makeHead = (method: string): string => `{"method":"${method}","outputPath":"`;
const makeTail = (tool: string): string => `,"tool":"${tool}"}`;

/**
 * The canonical JSON of a call's satisfied key `{ method, output?, outputPath, params, tool }`: written
 * with its keys already in sorted order, so only the parameters (and `_output`) go through `canonicalJson`.
 * Equal to `canonicalJson(key)` (a test holds it to that), except that large values in the parameters are
 * written as their digests (see `paramsKeyJson`). Strings that need no escape are written between
 * quotes of the surrounding text: JSON.stringify of a string holding `†` (every reference text) reserves a
 * large two-byte buffer. The pieces before the output path and after the parameters depend only on the
 * method and the tool, so they are kept: each concatenation adds a string to the key.
 */
export function callKeyJson(call: CompiledCall, params: JsonObject, deeplyFrozen = false): string {
  return keyJson(call, paramsKeyJson(params, deeplyFrozen));
}

/** What the key is made of besides the parameters: the compiled call's fields, or a record's. */
interface KeyFields {
  readonly tool: string;
  readonly outputMethod: string;
  readonly outputPath?: { readonly text: string } | undefined;
  readonly hasOutput: boolean;
  readonly output?: JsonValue | undefined;
}

function keyJson(call: KeyFields, paramsJson: string): string {
  const path = call.outputPath?.text;
  const method = call.outputMethod;
  const tool = call.tool;
  if (!call.hasOutput && path !== undefined && needsNoJsonEscape(path)) {
    const head = piece(heads, method, makeHead);
    const tail = piece(tails, tool, makeTail);
    if (head !== undefined && tail !== undefined) return `${head}${path}","params":${paramsJson}${tail}`;
  }
  const output = call.hasOutput ? `"output":${canonicalJson(call.output ?? null)},` : "";
  if (path !== undefined && needsNoJsonEscape(path) && needsNoJsonEscape(method) && needsNoJsonEscape(tool))
    return `{"method":"${method}",${output}"outputPath":"${path}","params":${paramsJson},"tool":"${tool}"}`;
  const outputPath = path === undefined ? "null" : JSON.stringify(path);
  return `{"method":${JSON.stringify(method)},${output}"outputPath":${outputPath},"params":${paramsJson},"tool":${JSON.stringify(tool)}}`;
}

/** An array of at least this many items, or an object of this many keys, enters the key by digest. */
const DIGEST_FROM_MEMBERS = 1024;
/**
 * A string, array or object below the parameters' root whose weight is at least this enters the key by
 * digest: a long text, a large document. The weight of a value is the characters of its strings and keys,
 * plus one for each number, boolean, null and container in it: counted on the walk, a function of the value
 * alone, and at most the length of its JSON text (a value digested by weight has 64 Ki characters of JSON
 * or more; a long list of numbers may have more JSON and stay below it).
 */
const DIGEST_FROM_WEIGHT = 65_536;
/** Below this depth of the parameters nothing is looked for (no value the engine accepts is that deep). */
const DIGEST_MAX_DEPTH = MAX_VALUE_DEPTH;
/** A digested container's digest text and weight. */
interface KnownDigest {
  readonly text: string;
  readonly weight: number;
}
/** The digest of each large deeply frozen container (it never changes: hashed once however often read). */
const DIGESTS = new WeakMap<object, KnownDigest>();
/**
 * The digest texts of long strings, least recently used first (a string cannot key a WeakMap): many calls
 * reading one stored text hash it once. Bounded, as it holds the strings: {@link MAX_CACHED_STRINGS}
 * strings of {@link MAX_CACHED_CHARS} characters in all; a longer string is hashed on each use.
 */
const STRING_DIGESTS = new Map<string, string>();
const MAX_CACHED_STRINGS = 64;
const MAX_CACHED_CHARS = 2 ** 26;
/** Characters of the strings {@link STRING_DIGESTS} holds. */
let cachedChars = 0;
/** Stands for a digested value while the parameters are written (a per-process nonce: never in a plan). */
const SENTINEL = `\u0000obelisk-digest-${crypto.randomBytes(8).toString("hex")}-`;
/** The sentinels as canonical JSON writes them, with their number. */
const SENTINEL_TEXT = new RegExp(`${escapeRegExp(JSON.stringify(SENTINEL).slice(0, -1))}(\\d+)"`, "g");

function escapeRegExp(text: string): string {
  return text.replace(/[\\^$.*+?()[\]{}|]/g, "\\$&");
}

type Container = JsonValue[] | Record<string, JsonValue>;

/** The state of one walk of the parameters: the digests put in so far, and the weight of the last value. */
interface Walk {
  readonly digests: string[];
  readonly deeplyFrozen: boolean;
  /** The weight (see {@link DIGEST_FROM_WEIGHT}) of the value {@link withDigests} walked last. */
  weight: number;
}

/**
 * The canonical JSON of the resolved parameters as the key holds them. Below the root, each string, array
 * or object of {@link DIGEST_FROM_WEIGHT} weight or more, and each array of 1,024 items or object of 1,024
 * keys or more (not inside another such value) is written as `\u0000sha256:<digest>`: the SHA-256 of its
 * canonical JSON, in which the such values it holds are written as their digests in turn. A plan whose calls
 * read the same 10,000 stored records, or the same 20 MB text, hashed them again for every call (half of the
 * data-analysis example's engine time; 400 MB of SHA-256 per run for 20 readers of a 20 MB string). The
 * digest is kept per container when `deeplyFrozen` (the scheduler's resolved parameters are), and per long
 * string in a bounded cache. The rule depends only on the values, so equal parameters give equal keys,
 * literal or referenced; a raw NUL never occurs in canonical JSON (JSON escapes it), so no parameter value
 * can spell a digest. Linear in the parameters: each digested value's text is written once, with the
 * digests of the values it holds, and each text is searched for them only when it holds some.
 */
function paramsKeyJson(params: JsonObject, deeplyFrozen: boolean): string {
  const walk: Walk = { digests: [], deeplyFrozen, weight: 0 };
  const keyed = withDigests(params, 0, walk);
  if (walk.digests.length === 0) return canonicalJson(params);
  return withDigestTexts(canonicalJson(keyed), walk.digests);
}

/** `text` with each sentinel in it replaced by the digest text it stands for. */
function withDigestTexts(text: string, digests: readonly string[]): string {
  return text.replace(SENTINEL_TEXT, (_, at: string) => digests[Number(at)] as string);
}

/** The sentinel standing for `digest` (appended to the walk's digests). */
function sentinel(walk: Walk, digest: string): string {
  walk.digests.push(digest);
  return `${SENTINEL}${walk.digests.length - 1}`;
}

/**
 * `value` with a sentinel in place of every large value in it (each container on their paths copied, the
 * rest shared), or in place of itself when it is large and not the root (`depth` 0); `value` itself when
 * it holds none. Leaves the value's weight in `walk.weight`. A container read twice is walked twice, as
 * canonical JSON writes it twice: the cost stays that of writing the text, and the result depends on the
 * values only, never on which objects are shared.
 */
function withDigests(value: JsonValue, depth: number, walk: Walk): JsonValue {
  if (typeof value === "string") {
    walk.weight = value.length;
    return depth > 0 && value.length >= DIGEST_FROM_WEIGHT ? sentinel(walk, stringDigest(value)) : value;
  }
  walk.weight = 1;
  if (typeof value !== "object" || value === null || depth > DIGEST_MAX_DEPTH) return value;
  // never the root: parameters that are an object digested before as a nested value keep their own text
  const known = depth > 0 && walk.deeplyFrozen ? DIGESTS.get(value) : undefined;
  if (known !== undefined) {
    walk.weight = known.weight;
    return sentinel(walk, known.text);
  }
  const first = walk.digests.length;
  let copy: Container | undefined;
  const keys = Array.isArray(value) ? undefined : Object.keys(value);
  const count = keys === undefined ? (value as JsonValue[]).length : keys.length;
  let weight = 1;
  for (let at = 0; at < count; at++) {
    const key = keys === undefined ? at : (keys[at] as string);
    const item = (value as Record<string | number, JsonValue | undefined>)[key];
    if (item === undefined) continue; // JSON leaves it out
    if (keys !== undefined) weight += (key as string).length;
    if (
      typeof item === "string" ? item.length < DIGEST_FROM_WEIGHT : typeof item !== "object" || item === null
    ) {
      weight += typeof item === "string" ? item.length : 1;
      continue;
    }
    const replaced = withDigests(item, depth + 1, walk);
    weight += walk.weight;
    if (replaced === item) continue;
    copy ??= Array.isArray(value) ? value.slice() : { ...(value as JsonObject) };
    if (Array.isArray(copy)) copy[key as number] = replaced;
    else setOwn(copy, key as string, replaced);
  }
  walk.weight = weight;
  if (depth === 0 || (weight < DIGEST_FROM_WEIGHT && count < DIGEST_FROM_MEMBERS)) return copy ?? value;
  const json = canonicalJson(copy ?? value);
  const text = `\u0000sha256:${sha256Hex(walk.digests.length === first ? json : withDigestTexts(json, walk.digests))}`;
  if (walk.deeplyFrozen) DIGESTS.set(value, { text, weight });
  return sentinel(walk, text);
}

/** The digest text of a long string: kept in {@link STRING_DIGESTS} (strings never change). */
function stringDigest(value: string): string {
  const known = STRING_DIGESTS.get(value);
  if (known !== undefined) {
    // the most recently used last
    STRING_DIGESTS.delete(value);
    STRING_DIGESTS.set(value, known);
    return known;
  }
  const text = `\u0000sha256:${sha256Hex(canonicalJson(value))}`;
  if (value.length > MAX_CACHED_CHARS) return text;
  STRING_DIGESTS.set(value, text);
  cachedChars += value.length;
  for (const oldest of STRING_DIGESTS.keys()) {
    if (STRING_DIGESTS.size <= MAX_CACHED_STRINGS && cachedChars <= MAX_CACHED_CHARS) break;
    STRING_DIGESTS.delete(oldest);
    cachedChars -= oldest.length;
  }
  return text;
}

/**
 * 16 hex digits of SHA-256 over a tool's name and the canonical JSON of its arguments (large values by
 * digest, as in the satisfied key): the content part of `ctx.contentKey`.
 */
export function contentDigest(tool: string, args: JsonObject): string {
  return sha256Hex(`${JSON.stringify(tool)}:${paramsKeyJson(args, false)}`).slice(0, 16);
}

/**
 * The "satisfied" key of a call (SPEC §7): SHA-256 of the canonical JSON of tool, resolved parameters,
 * output path text and method — plus the `_output` value for latent calls, so a changed `_output` runs again.
 * `deeplyFrozen`: the caller guarantees `params` never change (the digests of their large containers are kept).
 */
export function callHash(call: CompiledCall, params: JsonObject, deeplyFrozen = false): string {
  return `sha256:${sha256Hex(callKeyJson(call, params, deeplyFrozen))}`;
}

/**
 * The call hash of a call without `_output` from its record (tool, method, output path, parameters): the
 * same as {@link callHash} of the call with those parameters. Given to stores that fill a record's hash in
 * later (`CallCommit.callHashOf`). `deeplyFrozen`: as in {@link callHash}.
 */
export function recordCallHash(record: CallRecord, deeplyFrozen = false): string {
  const outputPath = record.outputPath === undefined ? undefined : { text: record.outputPath };
  const fields: KeyFields = {
    tool: record.tool,
    outputMethod: record.outputMethod,
    outputPath,
    hasOutput: false,
  };
  const params = (record.params ?? {}) as JsonObject;
  return `sha256:${sha256Hex(keyJson(fields, paramsKeyJson(params, deeplyFrozen)))}`;
}

/** Parameters the scheduler resolved and dispatched (deeply frozen, as dispatch's `callHash` takes them). */
const RESOLVED_PARAMS = new WeakSet<object>();

/** Marks a record's parameters as the resolved ones, deeply frozen (see {@link resolvedRecordCallHash}). */
export function markResolvedParams(params: JsonObject): void {
  RESOLVED_PARAMS.add(params);
}

/**
 * {@link recordCallHash}, keeping the digests of large containers when the record's parameters were marked
 * resolved: many calls reading one large stored array digest it once. One function for every record, so
 * the memory store keeps filling hashes in lazily (it fills its pending ones when the function changes).
 */
export function resolvedRecordCallHash(record: CallRecord): string {
  return recordCallHash(record, record.params !== undefined && RESOLVED_PARAMS.has(record.params as object));
}

type OneShotHash = (algorithm: string, data: string, encoding: "hex") => string;
/** `crypto.hash` (Node ≥ 20.12): one native call, ~2× cheaper than `createHash` for short keys. */
const oneShot = (crypto as { hash?: OneShotHash }).hash;

/** SHA-256 of a string as hex (the same digest either way). */
function sha256Hex(text: string): string {
  if (oneShot !== undefined) return oneShot("sha256", text, "hex");
  return crypto.createHash("sha256").update(text).digest("hex");
}
