import type { CompiledCall } from "@obelisk/compiler";
import { canonicalJson, type JsonObject, sha256Hex } from "@obelisk/core";

/**
 * The "satisfied" key of a call (SPEC §7): SHA-256 of the canonical JSON of tool, resolved parameters,
 * output path text and method — plus the `_output` value for latent calls, so a changed `_output` runs again.
 */
export function callHash(call: CompiledCall, params: JsonObject): string {
  const key: Record<string, unknown> = {
    tool: call.tool,
    params,
    outputPath: call.outputPath?.text ?? null,
    method: call.outputMethod,
  };
  if (call.hasOutput) key.output = call.output ?? null;
  return `sha256:${sha256Hex(canonicalJson(key))}`;
}
