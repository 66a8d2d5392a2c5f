import { canonicalJson } from "./canonical-json.js";
import type { PlanDocument, PlanHash } from "./plan-document.js";
import { createSha256 } from "./sha256-hex.js";

/** Calls whose canonical texts are joined into one piece of the hash input. */
const CALLS_PER_PIECE = 128;

/** `"key":<canonical JSON>,` — or nothing when canonical JSON leaves the property out. */
function member(key: string, value: unknown): string {
  if (value === undefined || typeof value === "function" || typeof value === "symbol") return "";
  return `${JSON.stringify(key)}:${canonicalJson(value)},`;
}

/**
 * The plan hash (SPEC §6): `sha256:` + SHA-256 of the canonical JSON of the plan in its canonical form
 * `{ "type": "plan", "plan": [calls], id?, description?, inputSchema? }` — so the same plan submitted
 * in any accepted form (plan, calls, array, single call) has the same hash, and whitespace, key order
 * and `$schema` do not matter. See docs/decisions/0001-plan-hash.md.
 *
 * The canonical text is hashed in pieces of a few calls (keys in canonical order: description, id,
 * inputSchema, plan, type), never built whole: a 10k-call plan's text is megabytes that would otherwise
 * stay alive, and be copied by the garbage collector, while it is built.
 */
export function planHash(document: PlanDocument): PlanHash {
  const hash = createSha256();
  const head = `{${member("description", document.description)}${member("id", document.id)}${member("inputSchema", document.inputSchema)}`;
  const calls = document.calls;
  hash.update(`${head}"plan":[`);
  for (let start = 0; start < calls.length; start += CALLS_PER_PIECE) {
    const values = calls.slice(start, start + CALLS_PER_PIECE).map((call) => call.value);
    // The canonical text of the piece as an array, without its brackets: the calls joined by commas.
    const text = canonicalJson(values);
    // The comma apart: a concatenation would be flattened (copied) again before hashing.
    if (start > 0) hash.update(",");
    hash.update(text.slice(1, -1));
  }
  hash.update('],"type":"plan"}');
  return `sha256:${hash.digestHex()}`;
}
