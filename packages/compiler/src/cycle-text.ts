/** Calls of a cycle shown at each end of a long one. */
const SHOWN_AT_EACH_END = 10;

/**
 * A cycle as text, `a → b → c → a`; a long one keeps its first and last calls around the count of the
 * ones left out (a 20,000-call cycle made a message of ~170,000 characters). The diagnostic's `related`
 * keeps every call.
 */
export function cycleText(path: readonly string[]): string {
  if (path.length <= 2 * SHOWN_AT_EACH_END + 1) return path.join(" → ");
  const left = path.length - 2 * SHOWN_AT_EACH_END;
  return [
    ...path.slice(0, SHOWN_AT_EACH_END),
    `… ${left.toLocaleString("en-US")} more …`,
    ...path.slice(-SHOWN_AT_EACH_END),
  ].join(" → ");
}

/** At most this many reads are named in a cycle's hint. */
const MAX_READS_NAMED = 6;

/** The text a reader reads that the writer writes (a reference text), if any. */
export type ReadBetween = (reader: string, writer: string) => string | undefined;

/** What `cycleHint` reads of a call: its references' writers by reference text. */
interface CycleCall {
  readonly writers: ReadonlyMap<string, readonly { readonly callId: string }[]>;
}

/** `ReadBetween` over calls that know their references' writers (a builder's entries). */
export function readsByWriters(calls: { get(id: string): CycleCall | undefined }): ReadBetween {
  return (reader, writer) => {
    const writers = calls.get(reader)?.writers;
    if (writers === undefined) return undefined;
    for (const [text, links] of writers) for (const link of links) if (link.callId === writer) return text;
    return undefined;
  };
}

/**
 * The hint of a cycle: its text, which reference makes each step (`b reads †state.a (written by a)`), then
 * what to do, so that the plan can be fixed from the hint alone; the text alone when a step is not a read
 * (an accumulating co-writer's commit order, explained elsewhere) or a call is not known.
 */
export function cycleHint(path: readonly string[], readBetween: ReadBetween): string {
  const reads: string[] = [];
  const steps = Math.min(path.length - 1, MAX_READS_NAMED);
  for (let step = 0; step < steps; step++) {
    // The path goes writer → reader: the step a → b is b reading what a writes. Both reads exist in a
    // two-call cycle, where reading the other way first listed each step's reverse.
    const from = path[step] as string;
    const to = path[step + 1] as string;
    const read =
      describeRead(to, readBetween(to, from), from) ?? describeRead(from, readBetween(from, to), to);
    if (read === undefined) return cycleText(path);
    reads.push(read);
  }
  const more = path.length - 1 > steps ? "; and so on" : "";
  return `${cycleText(path)}: ${reads.join("; ")}${more}. Remove one of these reads, or have one of the calls write another path`;
}

function describeRead(reader: string, text: string | undefined, writer: string): string | undefined {
  return text === undefined ? undefined : `${reader} reads ${text} (written by ${writer})`;
}
