import type { Path, Reference } from "@obelisk/core";
import { pathsOverlap } from "@obelisk/core";
import type { CallEntry } from "./builder-types.js";
import type { WriterLink } from "./compiled-plan.js";
import type { PlanBuilder } from "./plan-builder.js";

/**
 * What `judge` says of every in-plan writer of `reference`, given the rest of the path below the writer's
 * target. Each writer must write a path strictly above the reference with `set`, by its first `_outputPath`
 * alternative (the one checked against its output at run time; a later one may hold any JSON or the routed
 * error). The first answer, or undefined as soon as a writer does not qualify or `judge` answers undefined
 * for one (that writer may hold the path).
 */
export function judgeEveryWriterAbove<T>(
  builder: PlanBuilder,
  links: readonly WriterLink[],
  reference: Reference,
  judge: (writer: CallEntry, rest: Path) => T | undefined,
): T | undefined {
  let first: T | undefined;
  for (const link of links) {
    const writer = builder.entries.get(link.callId);
    if (writer === undefined || writer.call.outputMethod !== "set") return undefined;
    for (const alternative of link.alternatives) {
      if (alternative !== 0) return undefined;
      for (const target of writer.alternatives[0] ?? []) {
        if (target.kind !== reference.kind || !pathsOverlap(target.path, reference.path)) continue;
        if (target.path.length >= reference.path.length) return undefined;
        const answer = judge(writer, reference.path.slice(target.path.length));
        if (answer === undefined) return undefined;
        first ??= answer;
      }
    }
  }
  return first;
}
