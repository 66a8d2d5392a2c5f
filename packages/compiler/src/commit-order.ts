import type { OutputMethod, OutputTarget } from "@obelisk/core";
import { OUTPUT_METHODS } from "@obelisk/core";
import type { CallEntry } from "./builder-types.js";
import { appended, type DagNode, outGroupAt, outGroupCount } from "./plan-dag.js";

/**
 * The plan-order commit of accumulating co-writers (SPEC §3: their contributions are applied in plan
 * order): a co-writer's write waits until every earlier writer of its path (by target text, as the
 * scheduler groups them) has settled. That is an edge earlier → later co-writer that no reference shows.
 * Only cycle detection counts it: with it, an earlier co-writer that reads (transitively) what a later one
 * writes closes a cycle, which the scheduler would otherwise find stalled at run time. Each call keeps the
 * next co-writer of each of its paths (`DagNode.commitNext`); edges to later ones follow by transitivity.
 */
export class CommitOrder {
  /** The latest accumulating writer of each target text so far. */
  readonly #latest = new Map<string, CallEntry>();

  /** The latest earlier co-writer of each path a new call accumulates into: they commit before it. */
  earlier(method: OutputMethod, alternatives: readonly (readonly OutputTarget[])[]): DagNode[] {
    if (!OUTPUT_METHODS[method].accumulating || this.#latest.size === 0) return [];
    const found: DagNode[] = [];
    for (const targets of alternatives)
      for (const target of targets) {
        const latest = this.#latest.get(target.text);
        if (latest !== undefined && !found.includes(latest)) found.push(latest);
      }
    return found;
  }

  /** Registers an added call: the latest co-writer of each path it accumulates into commits before it. */
  add(entry: CallEntry): void {
    if (!OUTPUT_METHODS[entry.call.outputMethod].accumulating) return;
    for (const targets of entry.alternatives)
      for (const target of targets) {
        const latest = this.#latest.get(target.text);
        if (latest === entry) continue;
        if (latest !== undefined && !latest.commitNext.includes(entry))
          latest.commitNext = appended(latest.commitNext, entry);
        this.#latest.set(target.text, entry);
      }
  }
}

/** Commit-order steps of one cycle explained in its message (a long cycle may have thousands). */
const SHOWN_STEPS = 3;

/** True when `to` reads something `from` writes (a reference edge, not only the commit order). */
function readsFrom(from: DagNode, to: DagNode): boolean {
  const groups = from.outGroups;
  for (let g = 0, count = outGroupCount(groups); g < count; g++)
    if (outGroupAt(groups, g).readers.includes(to)) return true;
  return false;
}

type Alternatives = readonly (readonly OutputTarget[])[];

/** A target text both calls write, if any. */
function sharedPath(earlier: Alternatives, later: Alternatives): string | undefined {
  for (const targets of later)
    for (const target of targets)
      for (const others of earlier)
        for (const other of others) if (other.text === target.text) return target.text;
  return undefined;
}

/** Streaming: the call being added (not an entry yet) and the earlier co-writers it commits after but does not read. */
export interface PendingCoWriter {
  readonly id: string;
  readonly alternatives: Alternatives;
  readonly commitsAfter: ReadonlySet<string>;
}

/**
 * What the commit-order steps of a cycle (`a → b → … → a`, call ids) mean, for its message and hint;
 * undefined when every step is a reference. A step is the commit order when the later call commits after
 * the earlier one and does not read it.
 */
export function commitOrderSteps(
  path: readonly string[],
  entries: ReadonlyMap<string, CallEntry>,
  pending?: PendingCoWriter,
): { readonly explanation: string; readonly advice: string } | undefined {
  const steps: string[] = [];
  const advice: string[] = [];
  for (let i = 0; i + 1 < path.length; i++) {
    const fromId = path[i] as string;
    const toId = path[i + 1] as string;
    const from = entries.get(fromId);
    if (from === undefined) continue;
    let later: Alternatives | undefined;
    if (pending !== undefined && toId === pending.id) {
      if (pending.commitsAfter.has(fromId)) later = pending.alternatives;
    } else {
      const to = entries.get(toId);
      if (to !== undefined && from.commitNext.includes(to) && !readsFrom(from, to)) later = to.alternatives;
    }
    if (later === undefined) continue;
    const text = sharedPath(from.alternatives, later) ?? "one path";
    steps.push(
      `${fromId} → ${toId} is plan order: both accumulate into ${text}, and ${toId}'s write is committed only after ${fromId}'s`,
    );
    advice.push(`list ${fromId} after ${toId}`);
  }
  if (steps.length === 0) return undefined;
  const more = steps.length - SHOWN_STEPS;
  const tail = more > 0 ? `; and ${more.toLocaleString("en-US")} more such steps` : "";
  return {
    explanation: steps.slice(0, SHOWN_STEPS).join("; ") + tail,
    advice: `${advice.slice(0, SHOWN_STEPS).join(", ")}${more > 0 ? ", …" : ""} (co-writers commit in plan order), or accumulate into different paths`,
  };
}
