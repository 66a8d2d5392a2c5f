import type { Reference } from "@obelisk/core";
import { ObeliskError, parseReference } from "@obelisk/core";

/**
 * Parses a `†state…` or `†calls.<id>…` reference; throws ObeliskError (the parser's code, USAGE for other
 * kinds, OUTPUT_PATH_READONLY when `forWrite` and the kind is not `state`).
 */
export function parseStoredReference(text: string, forWrite = false): Reference {
  const parsed = parseReference(text);
  if (!parsed.ok) {
    const { issue } = parsed;
    throw new ObeliskError(
      issue.code,
      `${text}: ${issue.message}`,
      issue.hint === undefined ? {} : { hint: issue.hint },
    );
  }
  const { kind, path } = parsed.value;
  if (forWrite && kind !== "state")
    throw new ObeliskError("OUTPUT_PATH_READONLY", `${text}: only †state can be written`);
  if (kind !== "state" && !(kind === "calls" && typeof path[0] === "string")) {
    throw new ObeliskError(
      "USAGE",
      `${text}: only †state… and †calls.<id>… references are stored in a thread`,
    );
  }
  return parsed.value;
}
