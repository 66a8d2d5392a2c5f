import * as crypto from "node:crypto";
import type { CompiledCall } from "@obelisk/compiler";
import { canonicalJson, type JsonObject } from "@obelisk/core";

/**
 * The canonical JSON of a call's satisfied key `{ method, output?, outputPath, params, tool }`: written
 * with its keys already in sorted order, so only the parameters (and `_output`) go through `canonicalJson`.
 * Equal to `canonicalJson(key)` (a test holds it to that).
 */
export function callKeyJson(call: CompiledCall, params: JsonObject): string {
  const output = call.hasOutput ? `"output":${canonicalJson(call.output ?? null)},` : "";
  const outputPath = call.outputPath === undefined ? "null" : JSON.stringify(call.outputPath.text);
  return `{"method":${JSON.stringify(call.outputMethod)},${output}"outputPath":${outputPath},"params":${canonicalJson(params)},"tool":${JSON.stringify(call.tool)}}`;
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
