import type { JsonValue, Path, Reference } from "@obelisk/core";
import { formatPath, formatReference, nearestNames, valueAtPath } from "@obelisk/core";
import type { CallEntry } from "./builder-types.js";
import type { PlanBuilder } from "./plan-builder.js";
import { schemaExcludesPath } from "./schema-excludes-path.js";
import { schemaAtPath } from "./schema-types.js";
import { storedCallOutput } from "./stored-call-output.js";

/** At most this many names of one level (or call ids) are compared with an unresolved name. */
const MAX_CANDIDATES = 5000;
/** At most this many calls of a tool are named when a tool name stands where a call id belongs. */
const MAX_TOOL_CALLS = 3;
/** At most this many did-you-mean hints per plan (per arriving call and at close when streaming). */
export const MAX_NEAR_HINTS = 200;
/** Hints computed so far, per plan builder (in the current pass, when streaming). */
const hintsGiven = new WeakMap<PlanBuilder, number>();
/** The same for REF_KIND_UNKNOWN's call hints (`kindAsCallHint`), counted apart: they come before close. */
const kindHintsGiven = new WeakMap<PlanBuilder, number>();

/**
 * Starts a new did-you-mean budget for `builder`: streaming gives each arriving call (and the close) its
 * own, so calls refused earlier do not use up the hints of the ones that come after.
 */
export function startHintPass(builder: PlanBuilder): void {
  hintsGiven.delete(builder);
  kindHintsGiven.delete(builder);
}

/** What the call-id hints need of a builder, gathered in one pass per builder version (only when asked). */
interface CallNames {
  readonly version: number;
  /** Call ids of the plan (compiled, then uncompiled) and stored ones, at most MAX_CANDIDATES. */
  readonly ids: ReadonlySet<string>;
}

const callNamesCache = new WeakMap<PlanBuilder, CallNames>();

function callNames(builder: PlanBuilder): CallNames {
  const cached = callNamesCache.get(builder);
  if (cached !== undefined && cached.version === builder.version) return cached;
  const ids = new Set<string>();
  for (const entry of builder.entries.values()) {
    if (ids.size >= MAX_CANDIDATES) break;
    ids.add(entry.id);
  }
  for (const source of [builder.phantomIds, builder.settings.context.callOutputs ?? []])
    for (const id of source) {
      if (ids.size >= MAX_CANDIDATES) break;
      ids.add(id);
    }
  const names = { version: builder.version, ids };
  callNamesCache.set(builder, names);
  return names;
}

/** The first MAX_TOOL_CALLS + 2 compiled calls of each tool, and how many of `builder.nodes` were read. */
interface ToolCalls {
  scanned: number;
  readonly byTool: Map<string, CallEntry[]>;
}

const toolCallsCache = new WeakMap<PlanBuilder, ToolCalls>();

/**
 * The first MAX_TOOL_CALLS + 2 compiled calls of `tool`, in plan order. The compiled calls (`nodes`, only
 * ever appended to) are read once per builder, from where the last question stopped: a stream whose every
 * call names a tool where a call id belongs costs linear time, not a pass over the plan per call (20,000
 * streamed calls took 20 s that way; decision 0101).
 */
function toolCalls(builder: PlanBuilder, tool: string): readonly CallEntry[] | undefined {
  let known = toolCallsCache.get(builder);
  if (known === undefined) {
    known = { scanned: 0, byTool: new Map() };
    toolCallsCache.set(builder, known);
  }
  const nodes = builder.nodes;
  for (; known.scanned < nodes.length; known.scanned++) {
    const entry = nodes[known.scanned] as CallEntry;
    const list = known.byTool.get(entry.tool.name);
    if (list === undefined) known.byTool.set(entry.tool.name, [entry]);
    // one more than shown and one more again: the reading call may be among them (it is left out)
    else if (list.length <= MAX_TOOL_CALLS + 1) list.push(entry);
  }
  return known.byTool.get(tool);
}

/** What to read for a call's output: its `_outputPath` targets, else `†calls.<id>`. */
function readText(entry: CallEntry): string {
  const outputPath = entry.call.outputPath;
  if (outputPath === undefined) return `†calls.${entry.id}`;
  return outputPath.alternatives
    .flat()
    .map((target) => target.text)
    .join(" or ");
}

/** True when the call's id was given by the engine (`<tool>$<n>`, numbered anew on every run). */
const hasAutomaticId = (entry: CallEntry): boolean => entry.call.raw._id === undefined;

/** The advice for reading an unnamed call's output: name it (its automatic id changes from run to run). */
function nameItAdvice(entry: CallEntry, rest: Path): string {
  const targets = entry.call.outputPath?.alternatives;
  const only = targets?.length === 1 && targets[0]?.length === 1 ? targets[0][0] : undefined;
  if (only !== undefined)
    return `read what that ${entry.tool.name} call writes: ${only.text}${formatPath(rest)}`;
  return `give that ${entry.tool.name} call an "_id" and read †calls.<that id>${formatPath(rest)} (its automatic id "${entry.id}" is numbered anew on every run)`;
}

/**
 * The ids of stored outputs of `tool`'s calls with automatic ids (`<tool>$<n>`, an earlier turn's), the
 * latest (highest `n`) first, at most MAX_TOOL_CALLS + 1 (decision 0101); among MAX_CANDIDATES stored ids.
 */
function storedToolIds(builder: PlanBuilder, tool: string): readonly string[] {
  let byTool = storedToolIdsCache.get(builder);
  if (byTool === undefined) {
    byTool = new Map();
    storedToolIdsCache.set(builder, byTool);
  }
  let ids = byTool.get(tool);
  if (ids === undefined) {
    ids = findStoredToolIds(builder.settings.context.callOutputs, tool);
    byTool.set(tool, ids);
  }
  return ids;
}

/** The stored ids of a builder's context, by tool (the context does not change while it compiles). */
const storedToolIdsCache = new WeakMap<PlanBuilder, Map<string, readonly string[]>>();

/** See {@link storedToolIds}: one pass over the first MAX_CANDIDATES stored ids. */
function findStoredToolIds(stored: ReadonlySet<string> | undefined, tool: string): readonly string[] {
  if (stored === undefined) return [];
  const prefix = `${tool}$`;
  const found: { id: string; n: number }[] = [];
  let seen = 0;
  for (const id of stored) {
    if (++seen > MAX_CANDIDATES) break;
    if (!id.startsWith(prefix)) continue;
    const n = id.slice(prefix.length);
    if (/^[0-9]{1,15}$/.test(n)) found.push({ id, n: Number(n) });
  }
  found.sort((a, b) => b.n - a.n);
  return found.slice(0, MAX_TOOL_CALLS + 1).map(({ id }) => id);
}

/** `; the outputs stored for its earlier calls: "<tool>$2", …: e.g. †calls.<tool>$2<rest>`, or "". */
function storedToolIdsText(ids: readonly string[], rest: Path): string {
  const [latest] = ids;
  if (latest === undefined) return "";
  const listed = ids
    .slice(0, MAX_TOOL_CALLS)
    .map((id) => JSON.stringify(id))
    .join(", ");
  const more = ids.length > MAX_TOOL_CALLS ? ", …" : "";
  const outputs =
    ids.length === 1 ? "the output stored for its earlier call" : "the outputs stored for its earlier calls";
  return `; ${outputs}: ${listed}${more}: e.g. ${JSON.stringify(formatReference("calls", [latest, ...rest]))}`;
}

/**
 * The hint for `†calls.<name>` where `name` is a tool's name, not a call id: the ids of its calls but the
 * reading one (its own output is none it can read), else the stored outputs of its automatic-id calls.
 */
function toolNameHint(
  name: string,
  allCalls: readonly CallEntry[] | undefined,
  rest: Path,
  builder: PlanBuilder,
  readerId: string | undefined,
): string {
  const calls = allCalls?.filter((entry) => entry.id !== readerId);
  const first = calls?.[0];
  if (calls === undefined || first === undefined) {
    const other = allCalls === undefined || allCalls.length === 0 ? "" : " other";
    return `"${name}" is a tool name, not a call id, and no${other} call of this plan uses that tool${storedToolIdsText(storedToolIds(builder, name), rest)}`;
  }
  if (hasAutomaticId(first) && first.call.outputPath === undefined)
    return `"${name}" is a tool name, not a call id: ${nameItAdvice(first, rest)}`;
  const ids = calls
    .slice(0, MAX_TOOL_CALLS)
    .map((entry) => JSON.stringify(entry.id))
    .join(", ");
  const more = calls.length > MAX_TOOL_CALLS ? ", …" : "";
  const have = calls.length === 1 ? "its call has the id" : "its calls have the ids";
  return `"${name}" is a tool name, not a call id; ${have} ${ids}${more}: read ${readAt(first, rest)}`;
}

/** The hint of an unresolved `†calls.<id>`: a tool name, or the nearest call id but the reader's. */
function nearCallHint(builder: PlanBuilder, reference: Reference, readerId?: string): NearHint | undefined {
  const id = reference.path[0];
  if (typeof id !== "string") return undefined;
  // A stored output whose value lacks the path: the nearest key of that value where the path goes wrong.
  const stored = storedCallOutput(builder, id);
  if (stored !== undefined)
    return nearPathHint(
      reference,
      1,
      (parent) => keysAt(stored.value, parent, 1),
      undefined,
      (parent) => valueAtPath(stored.value, parent, 1),
    );
  const rest = reference.path.slice(1);
  if (builder.registry.get(id) !== undefined)
    return {
      replaces: true,
      text: toolNameHint(id, toolCalls(builder, id), rest, builder, readerId),
    };
  const names = callNames(builder);
  // Never the reading call's own id: its †calls.<own id> resolves only to an output stored before.
  const [near] = nearestNames(id, names.ids, 2).filter((name) => name !== readerId);
  if (near === undefined) return undefined;
  const nearEntry = builder.entries.get(near);
  if (nearEntry !== undefined && hasAutomaticId(nearEntry))
    return {
      replaces: true,
      text: `did you mean this plan's unnamed call? ${nameItAdvice(nearEntry, rest)}`,
    };
  const text = `did you mean ${JSON.stringify(formatReference("calls", [near, ...reference.path.slice(1)]))}?`;
  return { replaces: false, text };
}

/** Adds up to MAX_CANDIDATES own keys of `value` (a plain object) to `out`. */
function addKeys(value: JsonValue | undefined, out: Set<string>): void {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return;
  for (const key in value) {
    if (out.size >= MAX_CANDIDATES) return;
    if (Object.hasOwn(value, key)) out.add(key);
  }
}

/** Up to MAX_CANDIDATES keys of the object at `parent` (its segments from `from` on) below `root`. */
function keysAt(root: JsonValue, parent: Path, from: number, names = new Set<string>()): Set<string> {
  addKeys(valueAtPath(root, parent, from), names);
  return names;
}

/**
 * The names known one level below `kind` + `parent`: written by the plan (not by the reading call alone:
 * its own output is never there for it to read), in the known value, declared.
 */
function knownNamesBelow(
  builder: PlanBuilder,
  kind: string,
  parent: Path,
  readerId: string | undefined,
): Set<string> {
  const names = new Set<string>();
  builder.writtenKeysBelow(kind, parent, names, MAX_CANDIDATES);
  if (readerId !== undefined)
    for (const name of names)
      if (builder.writesAloneAtOrBelow(readerId, kind, [...parent, name])) names.delete(name);
  const { context, planInputSchema } = builder.settings;
  const value =
    kind === "state" ? context.state : kind === "input" ? context.input : context.extraKinds?.[kind];
  if (value !== undefined) keysAt(value, parent, 0, names);
  const schemas =
    kind === "state" ? [context.stateSchema] : kind === "input" ? [planInputSchema, context.inputSchema] : [];
  for (const root of schemas) {
    if (root === undefined) continue;
    const properties = schemaAtPath(root, parent)?.properties;
    if (properties !== null && typeof properties === "object" && !Array.isArray(properties))
      addKeys(properties as JsonValue, names);
  }
  return names;
}

/**
 * The hint of an unresolved path: at the first segment that no known name of its level matches, the
 * nearest known one (the rest of the path kept), e.g. `†state.usr.name` → `†state.user.name`.
 */
function nearPathHint(
  reference: Reference,
  start: number,
  knownNames: (parent: Path) => Set<string>,
  allowed?: (prefix: Path) => boolean,
  knownValue?: (parent: Path) => JsonValue | undefined,
): NearHint | undefined {
  const path = reference.path;
  for (let depth = start; depth < path.length; depth++) {
    const segment = path[depth];
    if (segment === undefined) return undefined;
    const parent = path.slice(0, depth);
    if (typeof segment === "number") {
      // An index: within a known list the path goes on (decision 0097); past its end, say how long it is.
      const list = knownValue?.(parent);
      if (!Array.isArray(list)) return scalarHint(reference, parent, list, segment);
      if (segment < list.length) continue;
      return { replaces: false, text: indexPastEndText(reference, parent, list, path.slice(depth + 1)) };
    }
    const names = knownNames(parent);
    if (names.has(segment) || allowed?.(path.slice(0, depth + 1)) === true) continue;
    const [near] = nearestNames(segment, names, 1);
    if (near !== undefined) {
      const fixed = formatReference(reference.kind, [...parent, near, ...path.slice(depth + 1)]);
      return { replaces: false, text: `did you mean ${JSON.stringify(fixed)}?` };
    }
    // A name read from a list (`†state.orders.total`): an item has it, the list does not.
    if (Array.isArray(knownValue?.(parent))) {
      const item = formatReference(reference.kind, [...parent, 0, ...path.slice(depth)]);
      const list = formatReference(reference.kind, parent);
      return {
        replaces: false,
        text: `${list} is a list: read one of its items, e.g. ${JSON.stringify(item)}`,
      };
    }
    if (names.size === 0) return scalarHint(reference, parent, knownValue?.(parent), segment);
    const listed = [...names].slice(0, MAX_NAMES_LISTED).map((name) => JSON.stringify(name));
    const more = names.size > MAX_NAMES_LISTED ? ", …" : "";
    return { replaces: false, text: `the names known there: ${listed.join(", ")}${more}` };
  }
  return undefined;
}

/**
 * The hint for a list's index past its end: how many items it has, and a reference to its last item whose
 * rest is checked against that item (decision 0101), so the suggestion resolves: the rest as written when
 * it does, else with a name the item lacks replaced by its nearest one (an index past the end below by the
 * last), else the deepest reference that resolves with the names known there.
 */
function indexPastEndText(
  reference: Reference,
  parent: Path,
  list: readonly JsonValue[],
  rest: Path,
): string {
  const kind = reference.kind;
  const listed = formatReference(kind, parent);
  const length = list.length;
  if (length === 0) return `${listed} is an empty list: it has no item to read`;
  const items = `${listed} has ${length} item${length === 1 ? "" : "s"} (indexes 0 to ${length - 1})`;
  const base = [...parent, length - 1];
  const walked = restInItem(list[length - 1] as JsonValue, rest);
  if (walked.stuck === undefined) {
    const last = JSON.stringify(formatReference(kind, [...base, ...walked.path]));
    const fixed = walked.fixed;
    if (fixed === undefined) return `${items}: e.g. ${last}`;
    const where = formatReference(kind, [...base, ...walked.path.slice(0, fixed.depth)]);
    return `${items}: e.g. ${last} (${where} ${fixed.text})`;
  }
  const read = JSON.stringify(formatReference(kind, [...base, ...walked.path]));
  return `${items}; the last one has no ${formatPath(rest)}: read ${read} (${whatItHolds(walked.stuck)})`;
}

/** Where the rest of a path goes below a list's last item (see {@link restInItem}). */
interface RestInItem {
  /** The rest as it resolves in the item (corrected), or its part that does when `stuck`. */
  readonly path: Path;
  /** The first correction: at which segment of `path`, and what the value there lacks. */
  readonly fixed?: { readonly depth: number; readonly text: string };
  /** The value where the rest could not go on (no near name, a scalar, an empty list). */
  readonly stuck?: JsonValue;
}

/**
 * The rest of a path walked in `item`: a name the value there lacks becomes its nearest own key, an index
 * past a list's end the last index; it stops where neither helps.
 */
function restInItem(item: JsonValue, rest: Path): RestInItem {
  const path: (string | number)[] = [];
  let fixed: RestInItem["fixed"];
  let value = item;
  for (const segment of rest) {
    let next = valueAtPath(value, [segment]);
    let step = segment;
    if (next === undefined) {
      if (
        Array.isArray(value) &&
        typeof segment === "number" &&
        value.length > 0 &&
        segment >= value.length
      ) {
        step = value.length - 1;
        fixed ??= { depth: path.length, text: `has ${value.length} item${value.length === 1 ? "" : "s"}` };
      } else if (typeof segment === "string" && !Array.isArray(value)) {
        const [near] = nearestNames(segment, keysAt(value, [], 0), 1);
        if (near === undefined) return { path, ...(fixed === undefined ? {} : { fixed }), stuck: value };
        step = near;
        fixed ??= { depth: path.length, text: `has no ${JSON.stringify(segment)}` };
      } else return { path, ...(fixed === undefined ? {} : { fixed }), stuck: value };
      next = valueAtPath(value, [step]);
      if (next === undefined) return { path, ...(fixed === undefined ? {} : { fixed }), stuck: value };
    }
    path.push(step);
    value = next;
  }
  return fixed === undefined ? { path } : { path, fixed };
}

/** What a known value holds, for a path that cannot go on below it: its first names, its length, its type. */
function whatItHolds(value: JsonValue | undefined): string {
  if (value === undefined || value === null) return "it is null";
  if (Array.isArray(value)) return `it is a list of ${value.length} item${value.length === 1 ? "" : "s"}`;
  if (typeof value !== "object") return `it is a ${typeof value}`;
  const names = keysAt(value, [], 0);
  if (names.size === 0) return "it is an empty object";
  const listed = [...names].slice(0, MAX_NAMES_LISTED).map((name) => JSON.stringify(name));
  return `its names: ${listed.join(", ")}${names.size > MAX_NAMES_LISTED ? ", …" : ""}`;
}

/** The hint for a name or index read below a known text, number, boolean or null: read the value itself. */
function scalarHint(
  reference: Reference,
  parent: Path,
  value: JsonValue | undefined,
  segment: string | number,
): NearHint | undefined {
  if (value === undefined || (value !== null && typeof value === "object")) return undefined;
  const type = value === null ? "null" : `a ${typeof value}`;
  const below = typeof segment === "number" ? `[${segment}]` : JSON.stringify(segment);
  const read = formatReference(reference.kind, parent);
  return { replaces: false, text: `${read} is ${type}, with no ${below} below it: read "${read}" itself` };
}

/** At most this many names of one level are listed when none is near the unresolved one. */
const MAX_NAMES_LISTED = 8;

/** The known value of a kind at `path` (the thread's state, the run's input, a host kind's value). */
function contextValueAt(builder: PlanBuilder, kind: string, path: Path): JsonValue | undefined {
  const context = builder.settings.context;
  const root =
    kind === "state" ? context.state : kind === "input" ? context.input : context.extraKinds?.[kind];
  return valueAtPath(root, path);
}

/** A did-you-mean for an unresolved reference; `replaces`: it says more than the general hint. */
export interface NearHint {
  readonly replaces: boolean;
  readonly text: string;
}

/**
 * The did-you-mean of an unresolved reference: the nearest (edit distance) known name where the path
 * goes wrong — among the paths the plan writes, the call ids, the declared input (and state) properties
 * and the known context — or, for `†calls.<tool name>`, the ids of that tool's calls. Computed only when
 * the diagnostic is emitted, over bounded candidate lists (MAX_CANDIDATES per level).
 */
export function nearReferenceHint(
  builder: PlanBuilder,
  reference: Reference,
  readerId?: string,
): NearHint | undefined {
  // Each hint compares the name with up to MAX_CANDIDATES known ones (~0.5 ms): a plan with thousands of
  // unresolved references gets did-you-means for its first MAX_NEAR_HINTS only (5,000 took 2.4 s).
  const given = hintsGiven.get(builder) ?? 0;
  if (given >= MAX_NEAR_HINTS) return undefined;
  hintsGiven.set(builder, given + 1);
  if (reference.kind === "calls") return nearCallHint(builder, reference, readerId);
  const callRead = callOutputReadHint(builder, reference, readerId);
  if (callRead !== undefined) return callRead;
  return nearPathHint(
    reference,
    0,
    (parent) => knownNamesBelow(builder, reference.kind, parent, readerId),
    schemaAllows(builder, reference),
    (parent) => contextValueAt(builder, reference.kind, parent),
  );
}

/**
 * The hint for `†state.<id>…` where `<id>` is no name of the state but a call's id (decision 0097): a call
 * without `_outputPath` is read as `†calls.<id>`; one with it, at the paths it writes. Undefined otherwise.
 */
function callOutputReadHint(
  builder: PlanBuilder,
  reference: Reference,
  readerId: string | undefined,
): NearHint | undefined {
  const id = reference.path[0];
  if (reference.kind !== "state" || typeof id !== "string" || id === readerId) return undefined;
  const entry = builder.entries.get(id);
  const stored = entry === undefined && builder.settings.context.callOutputs?.has(id) === true;
  if (entry === undefined && !stored) return undefined;
  if (knownNamesBelow(builder, "state", [], readerId).has(id)) return undefined;
  const rest = formatPath(reference.path.slice(1));
  if (entry !== undefined && entry.call.outputPath !== undefined)
    return {
      replaces: true,
      text: `"${id}" is a call's id, not a name in the state: that call writes ${readText(entry)}; read there${rest === "" ? "" : ` (e.g. ${readText(entry).split(" or ")[0]}${rest})`}`,
    };
  const fixed = formatReference("calls", reference.path);
  return {
    replaces: true,
    text: `did you mean ${JSON.stringify(fixed)}? ("${id}" is a call's id: a call's output is read as †calls.<id> unless its _outputPath writes it to the state)`,
  };
}

/** What to read for `rest` of a call's output: below its first `_outputPath` target, else `†calls.<id>`. */
function readAt(entry: CallEntry, rest: Path): string {
  const target = entry.call.outputPath?.alternatives[0]?.[0];
  return target === undefined
    ? formatReference("calls", [entry.id, ...rest])
    : `${target.text}${formatPath(rest)}`;
}

/**
 * The hint of REF_KIND_UNKNOWN whose kind is no kind but a call's id (of a call added before, or a stored
 * output) or a registered tool's name (`†fetchUser.name`, decision 0101): the reference that reads that
 * call's output (`rest`: the path after the kind). Undefined for any other kind, and past MAX_NEAR_HINTS
 * such hints per plan (per arriving call when streaming): a tool's calls are gathered over the whole plan.
 */
export function kindAsCallHint(builder: PlanBuilder, kind: string, rest: Path): string | undefined {
  const entry = builder.entries.get(kind);
  const stored = entry === undefined && builder.settings.context.callOutputs?.has(kind) === true;
  const tool = entry === undefined && !stored && builder.registry.get(kind) !== undefined;
  if (entry === undefined && !stored && !tool) return undefined;
  const given = kindHintsGiven.get(builder) ?? 0;
  if (given >= MAX_NEAR_HINTS) return undefined;
  kindHintsGiven.set(builder, given + 1);
  if (entry !== undefined && entry.call.outputPath !== undefined)
    return `"${kind}" is a call's id, not a kind: that call writes ${readText(entry)}; read there (e.g. ${readAt(entry, rest)})`;
  if (!tool)
    return `did you mean ${JSON.stringify(formatReference("calls", [kind, ...rest]))}? ("${kind}" is a call's id, not a kind: a call's output is read as †calls.<id>)`;
  const [first, ...others] = toolCalls(builder, kind) ?? [];
  const what = `"${kind}" is a tool name, not a kind`;
  if (first === undefined) {
    const ids = storedToolIds(builder, kind);
    if (ids.length > 0) return `${what}${storedToolIdsText(ids, rest)}`;
    return `${what}: a call's output is read as †calls.<its _id>${formatPath(rest)} (give the call an "_id"), or where its _outputPath writes`;
  }
  if (hasAutomaticId(first) && first.call.outputPath === undefined)
    return `${what}: ${nameItAdvice(first, rest)}`;
  return `${what}; ${others.length === 0 ? "its call" : "its first call"} has the id "${first.id}": read ${readAt(first, rest)}`;
}

/**
 * For `†input` judged by its schemas alone (no input given): a prefix the schemas do not exclude is not
 * where the path goes wrong (`†input.b.y` with `b` allowed by `additionalProperties` and `y` excluded below
 * it is corrected at `y`, not at `b`: decision 0018).
 */
function schemaAllows(builder: PlanBuilder, reference: Reference): ((prefix: Path) => boolean) | undefined {
  const { context, planInputSchema } = builder.settings;
  if (reference.kind !== "input" || context.input !== undefined) return undefined;
  const schemas = [planInputSchema, context.inputSchema].filter((schema) => schema !== undefined);
  if (schemas.length === 0) return undefined;
  return (prefix) => !schemas.some((schema) => schemaExcludesPath(schema, prefix));
}
