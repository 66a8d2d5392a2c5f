import {
  asThreadId,
  DEFAULT_KINDS,
  formatReference,
  type JsonValue,
  nearestNames,
  ObeliskError,
  type Path,
  parseReference,
} from "@obelisk/core";
import { cutMessage } from "./cut-message.js";
import type { Engine } from "./engine-types.js";

/** Names suggested at most, and names of one level compared at most (a state of 100,000 keys). */
const MAX_SUGGESTIONS = 3;
const MAX_CANDIDATES = 5_000;
/** Characters kept of a suggested reference (a plan's names can be megabytes). */
const SUGGESTION_CHARS = 200;

/** What every not-found answer says: where the thread's names are listed. */
const LIST_ADVICE = "list_variables lists what the thread holds";

/** Up to MAX_CANDIDATES own keys of `value` when it is a plain object, else none. */
function keysOf(value: JsonValue | undefined): string[] {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return [];
  const keys: string[] = [];
  for (const key in value) {
    if (keys.length >= MAX_CANDIDATES) break;
    if (Object.hasOwn(value, key)) keys.push(key);
  }
  return keys;
}

/**
 * The references near `path` below `root` (the segments from `start` on): at the first segment the value
 * does not hold, the nearest keys of that level (edit distance), the rest of the path kept.
 */
function nearBelow(kind: string, path: Path, start: number, root: JsonValue): string[] {
  let value: JsonValue | undefined = root;
  for (let depth = start; depth < path.length; depth++) {
    const segment = path[depth] as string | number;
    const container: JsonValue | undefined = value;
    if (container !== null && typeof container === "object" && Object.hasOwn(container, segment)) {
      value = (container as Record<string, JsonValue>)[segment];
      continue;
    }
    if (typeof segment !== "string") return [];
    const rest = path.slice(depth + 1);
    return nearestNames(segment, keysOf(container), MAX_SUGGESTIONS).map((near) =>
      formatReference(kind, [...path.slice(0, depth), near, ...rest]),
    );
  }
  return [];
}

/** Stored call output ids near the unknown one, the rest of the path kept. */
async function nearCallIds(engine: Engine, threadId: string, path: Path): Promise<string[]> {
  // a thread the store does not hold has none (and is not created: decision 0022)
  const ids = (await engine.store.listCallOutputIds(asThreadId(threadId))).slice(0, MAX_CANDIDATES);
  return nearestNames(String(path[0]), ids, MAX_SUGGESTIONS).map((near) =>
    formatReference("calls", [near, ...path.slice(1)]),
  );
}

/**
 * The stored references nearest to one that holds nothing, where it goes wrong (`†state.usr.name` →
 * `†state.user.name`; `†calls.fetchUsr$1` → `†calls.fetchUser$1`), at most three, nearest first; none for
 * a reference that does not parse or whose kind stores nothing. Reads the thread through the engine (no
 * thread is created).
 */
export async function nearStoredReferences(
  engine: Engine,
  threadId: string,
  reference: string,
): Promise<string[]> {
  if (typeof reference !== "string")
    throw new ObeliskError("USAGE", "nearStoredReferences needs the reference as a string", {
      hint: 'e.g. nearStoredReferences(engine, threadId, "†state.user")',
    });
  const parsed = parseReference(reference, DEFAULT_KINDS, engine.limits);
  if (!parsed.ok) return [];
  const { kind, path } = parsed.value;
  if (kind === "state") {
    const state = await engine.get(threadId, "†state");
    return state.found ? nearBelow(kind, path, 0, state.value) : [];
  }
  if (kind === "calls" && path.length > 0) {
    const output = await engine.get(threadId, formatReference("calls", path.slice(0, 1)));
    return output.found ? nearBelow(kind, path, 1, output.value) : await nearCallIds(engine, threadId, path);
  }
  return [];
}

/** `did you mean "a", "b" or "c"?` for suggested references (each cut to 200 characters). */
function didYouMeanReferences(near: readonly string[]): string {
  const names = near.map((name) => JSON.stringify(cutMessage(name, SUGGESTION_CHARS)));
  const last = names.pop();
  return `did you mean ${names.length === 0 ? last : `${names.join(", ")} or ${last}`}?`;
}

/**
 * The hint of a `get_variable` that found nothing: the nearest stored names ({@link nearStoredReferences})
 * and where to see every name.
 */
export async function notFoundHint(engine: Engine, threadId: string, reference: string): Promise<string> {
  const near = await nearStoredReferences(engine, threadId, reference);
  if (near.length === 0) return `nothing is stored there; ${LIST_ADVICE}`;
  return `${didYouMeanReferences(near)} (${LIST_ADVICE})`;
}
