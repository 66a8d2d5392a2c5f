import type { Reference } from "@obelisk/core";
import { ObeliskError, parseReference } from "@obelisk/core";

const LEGACY_PREFIX = "$tool_output.";

/** A hint for a reference written without its dagger (`state.user`) or in the legacy `$tool_output.<id>` form. */
function missingDaggerHint(text: string): string | undefined {
  if (text.startsWith("†")) return undefined;
  const fixed = text.startsWith(LEGACY_PREFIX) ? `†calls.${text.slice(LEGACY_PREFIX.length)}` : `†${text}`;
  const parsed = parseReference(fixed);
  if (!parsed.ok || !["state", "calls"].includes(parsed.value.kind)) return undefined;
  return `a reference starts with a dagger: did you mean "${fixed}"?`;
}

/**
 * Parses a `†state…` or `†calls.<id>…` reference; throws ObeliskError (the parser's code, USAGE for other
 * kinds, OUTPUT_PATH_READONLY when `forWrite` and the kind is not `state`), with a hint when there is one
 * (`state.user` → `†state.user`).
 */
export function parseStoredReference(text: string, forWrite = false): Reference {
  const parsed = parseReference(text);
  if (!parsed.ok) {
    const { issue } = parsed;
    // without its dagger, only a stored kind is hinted at (core's hint would offer †input.x, not stored)
    const hint = text.startsWith("†") ? issue.hint : missingDaggerHint(text);
    throw new ObeliskError(issue.code, `${text}: ${issue.message}`, hint === undefined ? {} : { hint });
  }
  const { kind, path } = parsed.value;
  if (forWrite && kind !== "state")
    throw new ObeliskError("OUTPUT_PATH_READONLY", `${text}: only †state can be written`);
  if (kind !== "state" && !(kind === "calls" && typeof path[0] === "string")) {
    throw new ObeliskError(
      "USAGE",
      `${text}: only †state… and †calls.<id>… references are stored in a thread`,
      {
        hint: "a thread stores †state (e.g. †state.user) and call outputs (†calls.<callId>); †input is given per run",
      },
    );
  }
  return parsed.value;
}
