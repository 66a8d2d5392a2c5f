import { DEFAULT_KINDS, type KindTable } from "./kinds.js";
import type { ParseResult, Reference } from "./language-ast.js";
import { bracketNameHint, describeCharAt, issueAt } from "./language-issue.js";
import { DEFAULT_LIMITS, type Limits } from "./limits.js";
import { scanReference } from "./reference-scanner.js";

/** Parses one whole reference `†kind path` (SPEC §2); never throws. `text` of the result is canonical. */
export function parseReference(
  text: string,
  kinds: KindTable = DEFAULT_KINDS,
  limits: Pick<Limits, "maxPathDepth"> = DEFAULT_LIMITS,
): ParseResult<Reference> {
  const scan = scanReference(text, 0, { kinds, maxPathDepth: limits.maxPathDepth });
  if (!scan.ok) return scan;
  if (scan.end !== text.length) {
    const found = describeCharAt(text, scan.end);
    return issueAt(
      "REF_SYNTAX",
      `unexpected ${found} after the reference`,
      scan.end,
      bracketNameHint(text, scan.end),
    );
  }
  return { ok: true, value: scan.reference };
}
