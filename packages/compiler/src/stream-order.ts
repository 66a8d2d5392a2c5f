import { type Diagnostic, getAtPath, type Reference } from "@obelisk/core";
import type { BuilderSettings } from "./builder-types.js";
import { makeDiagnostic } from "./make-diagnostic.js";
import type { DagNode, WriterGroup } from "./plan-dag.js";
import { MAX_READERS_RELATED, walkReaders } from "./reader-walk.js";

/** At most this many reader ids are named in one STREAM_ORDER warning (the rest are counted). */
const MAX_READERS_NAMED = 5;

/**
 * True when the known context holds a value at `reference`: the state, the input, a host kind's value, or
 * a stored call output (by its id: the output's inside is not looked at, so a reference below it counts).
 */
function contextHolds(settings: BuilderSettings, reference: Reference): boolean {
  const { state, input, extraKinds, callOutputs } = settings.context;
  if (reference.kind === "calls") {
    const id = reference.path[0];
    return typeof id === "string" && callOutputs?.has(id) === true;
  }
  const root =
    reference.kind === "state" ? state : reference.kind === "input" ? input : extraKinds?.[reference.kind];
  return root !== undefined && getAtPath(root, reference.path).found;
}

/**
 * Streaming (SPEC §7): a call that writes a path calls added before it already read. A streamed reader
 * decides each reference over the writers added before it — and, when none was and the thread holds no
 * value there, waits for one — so a later writer is not waited for when the reader already had writers
 * of that path, or read a value the thread holds: it may run without this write (a join that sees one
 * search of two). A batch run of the same calls waits for every writer, so the two can differ; this is the
 * one warning that says so while the stream is still open. `feeds`: the groups of earlier readers the new
 * call writes into, before its own link is added; `pointer`: its `_outputPath` (the call when it has none).
 */
export function streamOrderWarning(
  callId: string,
  pointer: string,
  feeds: Iterable<WriterGroup>,
  settings: BuilderSettings,
): Diagnostic | undefined {
  const fed: WriterGroup[] = [];
  for (const group of feeds)
    if (group.links.length > 0 || contextHolds(settings, group.reference)) fed.push(group);
  const found = fed.length === 1 ? readersOfOne(fed[0] as WriterGroup, callId) : readersOfMany(fed, callId);
  if (found === undefined) return undefined;
  const { paths, related, count, exact } = found;
  const named = related.slice(0, MAX_READERS_NAMED).map((id) => JSON.stringify(id));
  const more = count - named.length;
  const who = `${count === 1 ? "call" : "calls"} ${named.join(", ")}${more > 0 ? ` and ${exact ? "" : "at least "}${more} more` : ""}`;
  return makeDiagnostic(
    "STREAM_ORDER",
    `call "${callId}" writes ${paths.join(", ")}, which ${who} added before it already ${count === 1 ? "reads" : "read"}: ${count === 1 ? "it does" : "they do"} not wait for this write (a streamed call's references are decided over the writers added before it, or the value the thread holds)`,
    pointer,
    {
      callId,
      related,
      hint: "send writers before their readers; a batch run of the same plan waits for every writer",
    },
  );
}

/** The earlier readers a STREAM_ORDER warning names: the paths they read, the first ones' ids, how many. */
interface FoundReaders {
  readonly paths: readonly string[];
  /** At most MAX_READERS_RELATED ids, in the order they were added. */
  readonly related: readonly string[];
  readonly count: number;
  /** False when `count` is a lower bound (too many readers to count each once). */
  readonly exact: boolean;
}

/**
 * The readers of one group but the new call, without a walk over all of them: a group's readers are
 * distinct calls, and the new call, when it reads the group too, was appended last.
 */
function readersOfOne(group: WriterGroup, callId: string): FoundReaders | undefined {
  const readers = group.readers;
  const count = readers.length - (readers[readers.length - 1]?.id === callId ? 1 : 0);
  if (count === 0) return undefined;
  const related: string[] = [];
  for (let r = 0; r < Math.min(count, MAX_READERS_RELATED); r++) related.push((readers[r] as DagNode).id);
  return { paths: [group.reference.text], related, count, exact: true };
}

/**
 * The distinct readers of several groups but the new call (a reader of two paths counts once). At most
 * MAX_READERS_WALKED of them are walked: past that the count is the largest group's, a lower bound (each of
 * n merge writers into a path whose n readers read two of its paths walked 2n: 6,000 took 21 s). The walk
 * is kept step by step and reused while the readers it covered are the same (see reader-walk.ts).
 */
function readersOfMany(groups: readonly WriterGroup[], callId: string): FoundReaders | undefined {
  const walk = walkReaders(groups, callId);
  if (walk.count === 0) return undefined;
  const paths: string[] = [];
  let largest = 0;
  const last = walk.added.length - 1;
  for (let g = 0; g < groups.length; g++) {
    const group = groups[g] as WriterGroup;
    const readers = group.readers;
    const others = readers.length - (readers[readers.length - 1]?.id === callId ? 1 : 0);
    largest = Math.max(largest, others);
    if ((g <= last && walk.added[g] === true) || (walk.full && g >= last && others > 0))
      paths.push(group.reference.text);
  }
  const exact = !walk.full;
  return {
    paths,
    related: walk.related,
    count: exact ? walk.count : Math.max(walk.count, largest),
    exact,
  };
}
