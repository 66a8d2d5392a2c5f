import type { JsonValue, Path, Reference } from "@obelisk/core";
import { formatPath, formatReference, getAtPath, valueAtPath } from "@obelisk/core";
import type { PlanBuilder } from "./plan-builder.js";
import type { Verdict } from "./reference-verdict.js";
import { schemaExcludesPath } from "./schema-excludes-path.js";
import { storedCallOutput } from "./stored-call-output.js";

/** The eviction of the reference or of the variable above it that held it, as a hint (REF_EVICTED). */
function evictedHint(builder: PlanBuilder, reference: Reference): string | undefined {
  const evicted = builder.settings.context.evicted;
  if (evicted === undefined) return undefined;
  for (let length = reference.path.length; length >= 1; length--) {
    const text = formatReference(reference.kind, reference.path.slice(0, length));
    const when = evicted(text);
    if (when !== undefined) return `REF_EVICTED: ${text} was ${when}; it cannot be read any more`;
  }
  return undefined;
}

/** At most this many references are named in the hint for a call of an earlier run. */
const MAX_WRITTEN_SHOWN = 3;

/**
 * "call "<id>" of an earlier run wrote its output to †state.k: read †state.k instead" (SPEC §3: its
 * output is not stored under `†calls.<id>`), with the path below `†calls.<id>` kept; undefined when the
 * host does not know such a call. A host answer that throws is unknown.
 */
function writtenEarlierHint(builder: PlanBuilder, id: string, below: Path): string | undefined {
  let wrote: readonly string[] | undefined;
  try {
    wrote = builder.settings.context.writtenBy?.(id);
  } catch {
    return undefined;
  }
  if (wrote === undefined || wrote.length === 0) return undefined;
  const suffix = formatPath(below);
  const shown = wrote.slice(0, MAX_WRITTEN_SHOWN).map((text) => `${text}${suffix}`);
  const more = wrote.length > shown.length ? ` (and ${wrote.length - shown.length} more)` : "";
  return `call "${id}" of an earlier run has an _outputPath: read ${shown.join(" or ")}${more} instead`;
}

/** The wrong-name verdict on `†calls.<id>` of another call of the plan that has an `_outputPath`, or undefined. */
export function namedCallWithOutputPath(builder: PlanBuilder, self: string, id: string): Verdict {
  const outputPath = id === self ? undefined : builder.entries.get(id)?.call.outputPath;
  if (outputPath === undefined) return undefined;
  return {
    hint: `call "${id}" has an _outputPath: read ${outputPath.alternatives
      .flat()
      .map((t) => t.text)
      .join(" or ")} instead`,
    wrongName: true,
  };
}

/** The verdict on a `†calls.<id>` operand no in-plan writer resolves: by the plan's calls, the stored outputs and the host's answers. */
export function judgeCalls(builder: PlanBuilder, self: string, reference: Reference): Verdict {
  const id = reference.path[0];
  if (typeof id !== "string") return undefined;
  const named = namedCallWithOutputPath(builder, self, id);
  if (named !== undefined) return named;
  const target = builder.entries.get(id);
  // A call reading its own †calls.<id> reads the output stored before the run (SPEC §6), like †state.
  if ((target !== undefined && id !== self) || builder.phantomIds.has(id)) return undefined;
  const stored = builder.settings.context.callOutputs;
  if (stored === undefined) return undefined;
  if (stored.has(id)) {
    // Below a stored output: judged against its value when the host gave it (unknown otherwise).
    const output = reference.path.length > 1 ? storedCallOutput(builder, id) : undefined;
    if (output === undefined || valueAtPath(output.value, reference.path, 1) !== undefined) return undefined;
    return { hint: `the output stored for call "${id}" has no value there`, near: true };
  }
  const evicted = evictedHint(builder, reference);
  if (evicted !== undefined) return { hint: evicted };
  const earlier = writtenEarlierHint(builder, id, reference.path.slice(1));
  if (earlier !== undefined) return { hint: earlier, wrongName: true };
  if (id === self)
    return {
      hint: "a call cannot read its own output: this reads the output an earlier run stored, and the thread holds none",
    };
  return { hint: "no call of this plan has that id, and the thread has no stored output for it", near: true };
}

/** The verdict on an operand of another kind no in-plan writer resolves: by the known context (state, input, host kinds). */
export function judgeContext(builder: PlanBuilder, reference: Reference): Verdict {
  const { context, planInputSchema } = builder.settings;
  const path = reference.path;
  switch (reference.kind) {
    case "state": {
      // Paths under †state.approvals. are approval gates (SPEC §7); †state.approvals itself is not.
      if ((path[0] === "approvals" && path.length >= 2) || context.state === undefined) return undefined;
      if (getAtPath(context.state, path).found) return undefined;
      const evicted = evictedHint(builder, reference);
      if (evicted !== undefined) return { hint: evicted };
      return { hint: "the thread's state has no value there and no call of this plan writes it", near: true };
    }
    case "input": {
      if (context.input !== undefined)
        return getAtPath(context.input, path).found
          ? undefined
          : { hint: "the run's input has no value there", near: true };
      // Without the input, only a path every valid input lacks is unresolved (decision 0018).
      for (const schema of [planInputSchema, context.inputSchema]) {
        if (schema !== undefined && schemaExcludesPath(schema, path))
          return { hint: "the input schema allows no value at this path", near: true };
      }
      return undefined;
    }
    default: {
      // Without `extraKinds` the host kinds' values are unknown (validate without a context); with it, a
      // kind it does not hold has no value in this run.
      const values = context.extraKinds;
      if (values === undefined) return undefined;
      if (!Object.hasOwn(values, reference.kind))
        return { hint: `the run's context gives no value for the ${reference.kind} kind`, near: false };
      const value = values[reference.kind] as JsonValue;
      return getAtPath(value, path).found
        ? undefined
        : { hint: `the ${reference.kind} context has no value there`, near: true };
    }
  }
}
