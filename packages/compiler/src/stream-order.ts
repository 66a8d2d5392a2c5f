import { type Diagnostic, getAtPath, type Reference } from "@obelisk/core";
import type { BuilderSettings } from "./builder-types.js";
import { makeDiagnostic } from "./make-diagnostic.js";
import type { WriterGroup } from "./plan-dag.js";

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
  // sets: a path many calls read (a list pushed to) would make every add quadratic in its readers
  const found = new Set<string>();
  const paths = new Set<string>();
  for (const group of feeds) {
    if (group.links.length === 0 && !contextHolds(settings, group.reference)) continue;
    const before = found.size;
    for (const reader of group.readers) if (reader.id !== callId) found.add(reader.id);
    if (found.size > before) paths.add(group.reference.text);
  }
  if (found.size === 0) return undefined;
  const readers = [...found];
  const named = readers.slice(0, MAX_READERS_NAMED).map((id) => JSON.stringify(id));
  const more = readers.length - named.length;
  const who = `${readers.length === 1 ? "call" : "calls"} ${named.join(", ")}${more > 0 ? ` and ${more} more` : ""}`;
  return makeDiagnostic(
    "STREAM_ORDER",
    `call "${callId}" writes ${[...paths].join(", ")}, which ${who} added before it already ${readers.length === 1 ? "reads" : "read"}: ${readers.length === 1 ? "it does" : "they do"} not wait for this write (a streamed call's references are decided over the writers added before it, or the value the thread holds)`,
    pointer,
    {
      callId,
      related: readers,
      hint: "send writers before their readers; a batch run of the same plan waits for every writer",
    },
  );
}
