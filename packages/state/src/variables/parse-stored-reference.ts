import type { Reference } from "@obelisk/core";
import { DEFAULT_KINDS, DEFAULT_LIMITS, ObeliskError, parseReference } from "@obelisk/core";

const LEGACY_PREFIX = "$tool_output.";

/**
 * How deep a reference given to `getValue`, `setValue`, `unsetValue` and `summarize`'s `refs` may go: the
 * engine's `maxPathDepth` (segments after the kind; default 32, as plans). A deeper one is refused with
 * PLAN_LIMIT and changes nothing. References the store itself holds (variables' metadata) are read at any
 * depth.
 */
export interface ReferenceLimits {
  /** Most path segments after the kind (a whole number >= 1). Default 32 (`DEFAULT_LIMITS.maxPathDepth`). */
  readonly maxPathDepth?: number | undefined;
}

/** Any depth: a reference the store formatted names a path that was written, whatever the writer's limits. */
export const ANY_DEPTH = { maxPathDepth: Number.MAX_SAFE_INTEGER } as const;

/** The depth limit to parse with (USAGE for a `maxPathDepth` that is no whole number >= 1). */
export function depthLimit(limits: ReferenceLimits | undefined): { readonly maxPathDepth: number } {
  const depth = limits?.maxPathDepth;
  if (depth === undefined) return DEFAULT_LIMITS;
  if (!Number.isSafeInteger(depth) || depth < 1) {
    throw new ObeliskError(
      "USAGE",
      `maxPathDepth must be a whole number of at least 1, got ${String(depth)}`,
    );
  }
  return { maxPathDepth: depth };
}

/** Other languages' sigils a model writes instead of the dagger: `$state.x`, `$.state.x`, `${state.x}`, `@state.x`. */
const FOREIGN_SIGIL = /^(?:\$\{(.*)\}|[$@#]\.?(.*))$/s;

/**
 * A hint for a reference written without its dagger (`state.user`), with another sigil (`$state.user`,
 * `${state.user}`) or in the legacy `$tool_output.<id>` form.
 */
function missingDaggerHint(text: string, limits: { readonly maxPathDepth: number }): string | undefined {
  if (text.startsWith("†")) return undefined;
  const sigil = FOREIGN_SIGIL.exec(text);
  const bare = sigil === null ? text : (sigil[1] ?? sigil[2] ?? "");
  const fixed = text.startsWith(LEGACY_PREFIX) ? `†calls.${text.slice(LEGACY_PREFIX.length)}` : `†${bare}`;
  const parsed = parseReference(fixed, DEFAULT_KINDS, limits);
  if (!parsed.ok || !["state", "calls"].includes(parsed.value.kind)) return undefined;
  return `a reference starts with a dagger: did you mean "${fixed}"?`;
}

/**
 * Parses a `†state…` or `†calls.<id>…` reference no deeper than `limits` allow; throws ObeliskError (the
 * parser's code — PLAN_LIMIT for a deeper one —, USAGE for other kinds or a bad `maxPathDepth`,
 * OUTPUT_PATH_READONLY when `forWrite` and the kind is not `state`), with a hint when there is one
 * (`state.user` → `†state.user`).
 */
export function parseStoredReference(text: string, forWrite = false, limits?: ReferenceLimits): Reference {
  const depth = depthLimit(limits);
  const parsed = parseReference(text, DEFAULT_KINDS, depth);
  if (!parsed.ok) {
    const { issue } = parsed;
    // without its dagger, only a stored kind is hinted at (core's hint would offer †input.x, not stored)
    const hint = text.startsWith("†") ? issue.hint : missingDaggerHint(text, depth);
    throw new ObeliskError(issue.code, `${text}: ${issue.message}`, hint === undefined ? {} : { hint });
  }
  const { kind, path } = parsed.value;
  if (forWrite && kind !== "state")
    throw new ObeliskError("OUTPUT_PATH_READONLY", `${text}: only †state can be written`, {
      hint: 'set and unset write only †state (e.g. "†state.result"); †calls and †input are read-only',
    });
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
