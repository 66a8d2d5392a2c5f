import * as crypto from "node:crypto";
import type { CompiledCall } from "@obelisk/compiler";
import { canonicalJson, type JsonObject, needsNoJsonEscape } from "@obelisk/core";

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
 * Equal to `canonicalJson(key)` (a test holds it to that). Strings that need no escape are written between
 * quotes of the surrounding text: JSON.stringify of a string holding `†` (every reference text) reserves a
 * large two-byte buffer. The pieces before the output path and after the parameters depend only on the
 * method and the tool, so they are kept: each concatenation adds a string to the key.
 */
export function callKeyJson(call: CompiledCall, params: JsonObject): string {
  const path = call.outputPath?.text;
  const method = call.outputMethod;
  const tool = call.tool;
  if (!call.hasOutput && path !== undefined && needsNoJsonEscape(path)) {
    const head = piece(heads, method, makeHead);
    const tail = piece(tails, tool, makeTail);
    if (head !== undefined && tail !== undefined)
      return `${head}${path}","params":${canonicalJson(params)}${tail}`;
  }
  const output = call.hasOutput ? `"output":${canonicalJson(call.output ?? null)},` : "";
  if (path !== undefined && needsNoJsonEscape(path) && needsNoJsonEscape(method) && needsNoJsonEscape(tool))
    return `{"method":"${method}",${output}"outputPath":"${path}","params":${canonicalJson(params)},"tool":"${tool}"}`;
  const outputPath = path === undefined ? "null" : JSON.stringify(path);
  return `{"method":${JSON.stringify(method)},${output}"outputPath":${outputPath},"params":${canonicalJson(params)},"tool":${JSON.stringify(tool)}}`;
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
