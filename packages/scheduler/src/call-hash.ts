import * as crypto from "node:crypto";
import type { CompiledCall } from "@obelisk/compiler";
import {
  canonicalJson,
  type JsonObject,
  type JsonValue,
  needsNoJsonEscape,
  type Path,
  setOwn,
} from "@obelisk/core";

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
export function callKeyJson(call: CompiledCall, params: JsonObject): string {
  return keyJson(call, paramsKeyJson(params));
}

function keyJson(call: CompiledCall, paramsJson: string): string {
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
/** The digest text of each large frozen array (stored values never change: hashed once however often read). */
const DIGESTS = new WeakMap<object, string>();
/** Stands for the `i`-th digested array while the parameters are written (a per-process nonce: never in a plan). */
const SENTINEL = `\u0000obelisk-digest-${crypto.randomBytes(8).toString("hex")}-`;

/**
 * The canonical JSON of the resolved parameters as the key holds them. Each array of 1,024 items or more
 * (not inside another such array) is written as `\u0000sha256:<digest of its canonical JSON>`, the digest
 * kept per frozen array: a plan whose calls read the same 10,000 stored records hashed them again for every
 * call (half of the data-analysis example's engine time). The rule depends only on the values, so equal
 * parameters give equal keys, literal or referenced; a raw NUL never occurs in canonical JSON (JSON escapes
 * it), so no parameter value can spell a digest.
 */
function paramsKeyJson(params: JsonObject): string {
  const large: { readonly path: Path; readonly digest: string }[] = [];
  collectLarge(params, [], large);
  if (large.length === 0) return canonicalJson(params);
  let keyed = params;
  for (let at = 0; at < large.length; at++)
    keyed = replacedAt(keyed, (large[at] as (typeof large)[number]).path, `${SENTINEL}${at}`);
  let written = canonicalJson(keyed);
  for (let at = 0; at < large.length; at++) {
    const { digest } = large[at] as (typeof large)[number];
    written = written.split(JSON.stringify(`${SENTINEL}${at}`)).join(digest);
  }
  return written;
}

/** Appends the path and digest of every large array in `value` (not descending into one). */
function collectLarge(
  value: JsonValue,
  path: (string | number)[],
  into: { readonly path: Path; readonly digest: string }[],
): void {
  if (typeof value !== "object" || value === null || path.length > DIGEST_MAX_DEPTH) return;
  if (Array.isArray(value)) {
    if (value.length >= DIGEST_FROM_ITEMS) {
      into.push({ path: path.slice(), digest: digestOf(value) });
      return;
    }
    for (let index = 0; index < value.length; index++) {
      const item = value[index] as JsonValue;
      if (typeof item !== "object" || item === null) continue;
      path.push(index);
      collectLarge(item, path, into);
      path.pop();
    }
    return;
  }
  for (const key of Object.keys(value)) {
    const item = (value as JsonObject)[key] as JsonValue;
    if (typeof item !== "object" || item === null) continue;
    path.push(key);
    collectLarge(item, path, into);
    path.pop();
  }
}

function digestOf(value: readonly JsonValue[]): string {
  const known = DIGESTS.get(value);
  if (known !== undefined) return known;
  const digest = `\u0000sha256:${sha256Hex(canonicalJson(value))}`;
  if (Object.isFrozen(value)) DIGESTS.set(value, digest);
  return digest;
}

/** A copy of `root` with `value` at `path` (every container on the path copied; the others shared). */
function replacedAt(root: JsonObject, path: Path, value: JsonValue): JsonObject {
  const copy = (node: JsonValue | undefined): JsonValue[] | Record<string, JsonValue> =>
    Array.isArray(node) ? node.slice() : { ...(node as JsonObject) };
  const top = copy(root) as Record<string, JsonValue>;
  let node: JsonValue[] | Record<string, JsonValue> = top;
  for (let depth = 0; depth < path.length; depth++) {
    const segment = path[depth] as string | number;
    const next = depth === path.length - 1 ? value : copy((node as Record<string, JsonValue>)[segment]);
    if (Array.isArray(node)) node[segment as number] = next;
    else setOwn(node, segment, next);
    if (typeof next === "object" && next !== null) node = next as JsonValue[] | Record<string, JsonValue>;
  }
  return top;
}

/**
 * The "satisfied" key of a call (SPEC §7): SHA-256 of the canonical JSON of tool, resolved parameters,
 * output path text and method — plus the `_output` value for latent calls, so a changed `_output` runs again.
 */
export function callHash(call: CompiledCall, params: JsonObject): string {
  return `sha256:${sha256Hex(callKeyJson(call, params))}`;
}

type OneShotHash = (algorithm: string, data: string, encoding: "hex") => string;
/** `crypto.hash` (Node ≥ 20.12): one native call, ~2× cheaper than `createHash` for short keys. */
const oneShot = (crypto as { hash?: OneShotHash }).hash;

/** SHA-256 of a string as hex (the same digest either way). */
function sha256Hex(text: string): string {
  if (oneShot !== undefined) return oneShot("sha256", text, "hex");
  return crypto.createHash("sha256").update(text).digest("hex");
}
