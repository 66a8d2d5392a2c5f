import { canonicalJson } from "./canonical-json.js";
import type { PlanDocument, PlanHash } from "./plan-document.js";
import { sha256Hex } from "./sha256-hex.js";

/**
 * The plan hash (SPEC §6): `sha256:` + SHA-256 of the canonical JSON of the plan in its canonical form
 * `{ "type": "plan", "plan": [calls], id?, description?, inputSchema? }` — so the same plan submitted
 * in any accepted form (plan, calls, array, single call) has the same hash, and whitespace, key order
 * and `$schema` do not matter. See docs/decisions/0001-plan-hash.md.
 */
export function planHash(document: PlanDocument): PlanHash {
  const canonical: Record<string, unknown> = { type: "plan", plan: document.calls.map((call) => call.value) };
  if (document.id !== undefined) canonical.id = document.id;
  if (document.description !== undefined) canonical.description = document.description;
  if (document.inputSchema !== undefined) canonical.inputSchema = document.inputSchema;
  return `sha256:${sha256Hex(canonicalJson(canonical))}`;
}
