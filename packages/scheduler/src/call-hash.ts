import * as crypto from "node:crypto";
import type { CompiledCall } from "@obelisk/compiler";
import { canonicalJson, type JsonObject, type JsonValue, needsNoJsonEscape, setOwn } from "@obelisk/core";
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
 * Equal to `canonicalJson(key)` (a test holds it to that), except that an array of 1,024 items or more in
 * the parameters is written as its digest (see `paramsKeyJson`). Strings that need no escape are written between
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

/** An array of at least this many items enters the key by digest (lists of records). */
const DIGEST_FROM_ITEMS = 1024;
/** Below this depth of the parameters, arrays are not looked for (their text is written as usual). */
const DIGEST_MAX_DEPTH = 64;
/** The digest text of each large deeply frozen array (it never changes: hashed once however often read). */
const DIGESTS = new WeakMap<object, string>();
/** Stands for a digested array while the parameters are written (a per-process nonce: never in a plan). */
const SENTINEL = `\u0000obelisk-digest-${crypto.randomBytes(8).toString("hex")}-`;
/** The sentinels as canonical JSON writes them, with their number. */
const SENTINEL_TEXT = new RegExp(`${escapeRegExp(JSON.stringify(SENTINEL).slice(0, -1))}(\\d+)"`, "g");

function escapeRegExp(text: string): string {
  return text.replace(/[\\^$.*+?()[\]{}|]/g, "\\$&");
}

type Container = JsonValue[] | Record<string, JsonValue>;

/**
 * The canonical JSON of the resolved parameters as the key holds them. Each array of 1,024 items or more
 * (not inside another such array) is written as `\u0000sha256:<digest of its canonical JSON>`: a plan
 * whose calls read the same 10,000 stored records hashed them again for every call (half of the
 * data-analysis example's engine time). The digest is kept per array when `deeplyFrozen` (the scheduler's
 * resolved parameters are). The rule depends only on the values, so equal parameters give equal keys,
 * literal or referenced; a raw NUL never occurs in canonical JSON (JSON escapes it), so no parameter value
 * can spell a digest. Linear in the parameters however many large arrays they hold: the containers on their
 * paths copied as they are walked, one pass to put the digests in.
 */
function paramsKeyJson(params: JsonObject, deeplyFrozen: boolean): string {
  const digests: string[] = [];
  const keyed = withDigests(params, 0, digests, deeplyFrozen);
  if (digests.length === 0) return canonicalJson(params);
  return canonicalJson(keyed).replace(SENTINEL_TEXT, (_, at: string) => digests[Number(at)] as string);
}

/**
 * `value` with a sentinel in place of every large array in it (each container on their paths copied, the
 * rest shared), their digests appended to `digests`; `value` itself when it holds none. A container read
 * twice is walked twice, as canonical JSON writes it twice: the cost stays that of writing the text, and
 * the result depends on the values and their depth only, never on which objects are shared.
 */
function withDigests(value: JsonValue, depth: number, digests: string[], deeplyFrozen: boolean): JsonValue {
  if (typeof value !== "object" || value === null || depth > DIGEST_MAX_DEPTH) return value;
  if (Array.isArray(value) && value.length >= DIGEST_FROM_ITEMS) {
    digests.push(digestOf(value, deeplyFrozen));
    return `${SENTINEL}${digests.length - 1}`;
  }
  let copy: Container | undefined;
  const keys = Array.isArray(value) ? undefined : Object.keys(value);
  const count = keys === undefined ? (value as JsonValue[]).length : keys.length;
  for (let at = 0; at < count; at++) {
    const key = keys === undefined ? at : (keys[at] as string);
    const item = (value as Record<string | number, JsonValue>)[key] as JsonValue;
    if (typeof item !== "object" || item === null) continue;
    const replaced = withDigests(item, depth + 1, digests, deeplyFrozen);
    if (replaced === item) continue;
    copy ??= Array.isArray(value) ? value.slice() : { ...(value as JsonObject) };
    if (Array.isArray(copy)) copy[key as number] = replaced;
    else setOwn(copy, key as string, replaced);
  }
  return copy ?? value;
}

function digestOf(value: readonly JsonValue[], deeplyFrozen: boolean): string {
  const known = deeplyFrozen ? DIGESTS.get(value) : undefined;
  if (known !== undefined) return known;
  const digest = `\u0000sha256:${sha256Hex(canonicalJson(value))}`;
  if (deeplyFrozen) DIGESTS.set(value, digest);
  return digest;
}

/**
 * 16 hex digits of SHA-256 over a tool's name and the canonical JSON of its arguments (large arrays by
 * digest, as in the satisfied key): the content part of `ctx.contentKey`.
 */
export function contentDigest(tool: string, args: JsonObject): string {
  return sha256Hex(`${JSON.stringify(tool)}:${paramsKeyJson(args, false)}`).slice(0, 16);
}

/**
 * The "satisfied" key of a call (SPEC §7): SHA-256 of the canonical JSON of tool, resolved parameters,
 * output path text and method — plus the `_output` value for latent calls, so a changed `_output` runs again.
 * `deeplyFrozen`: the caller guarantees `params` never change (the digests of their large arrays are kept).
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
 * {@link recordCallHash}, keeping the digests of large arrays when the record's parameters were marked
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
