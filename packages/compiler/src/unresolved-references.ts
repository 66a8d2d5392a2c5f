import type { Diagnostic, InputExpression, JsonObject, JsonValue, Path, Reference } from "@obelisk/core";
import { formatPath, formatReference, getAtPath, pathsOverlap, valueAtPath } from "@obelisk/core";
import type { CallEntry, PhantomCall } from "./builder-types.js";
import type { WriterLink } from "./compiled-plan.js";
import { makeDiagnostic } from "./make-diagnostic.js";
import { nearReferenceHint } from "./near-reference-hint.js";
import type { PlanBuilder } from "./plan-builder.js";
import { schemaExcludesPath, typeForbids } from "./schema-excludes-path.js";
import { schemaSummary } from "./schema-summary.js";
import { schemaAtPath } from "./schema-types.js";
import { storedCallOutput } from "./stored-call-output.js";
import { readsUnreadableKind } from "./unreadable-reference.js";
import { judgeEveryWriterAbove } from "./writers-above.js";

/**
 * Why an operand is unresolved (undefined when it resolves or cannot be judged); `near`: a did-you-mean
 * may help (not when the path was there and got evicted, nor for a call reading its own output);
 * `wrongName`: the operand names a value by a name it never has (`†calls.<id>` of a call with an
 * `_outputPath`, SPEC §3: "one value, one name"), reported even where another `||` alternative resolves.
 */
type Verdict = { readonly hint?: string; readonly near?: boolean; readonly wrongName?: boolean } | undefined;

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

const WHOLE_CALLS: Verdict = {
  hint: "†calls holds each call's output by its id: read †calls.<id> (a call without an _outputPath)",
  wrongName: true,
};

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
function namedCallWithOutputPath(builder: PlanBuilder, self: string, id: string): Verdict {
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

function judgeCalls(builder: PlanBuilder, self: string, reference: Reference): Verdict {
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

function judgeContext(builder: PlanBuilder, reference: Reference): Verdict {
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

/**
 * REF_UNRESOLVED for the references of a call that could not be compiled (an unknown tool, a bad or
 * repeated `_id`; batch only), so they are reported with its other errors, not after its fix. An operand
 * is resolved by any writer of the plan (compiled or not, its own targets included: no type checks and no
 * self-read verdict without a schema-checked call) or by the known context.
 */
export function phantomUnresolved(builder: PlanBuilder, phantom: PhantomCall, out: Diagnostic[]): void {
  const readerId = phantom.id ?? "";
  const context = builder.settings.context;
  for (const reference of phantom.references) {
    if (readsUnreadableKind(context, undefined, reference)) continue;
    const value = reference.value;
    const expressions =
      value.type === "reference"
        ? [value.expression]
        : value.parts.filter((part): part is InputExpression => typeof part !== "string");
    for (const expression of expressions) {
      const failed = firstUnresolved(builder, readerId, expression, judgePhantomOperand, false);
      if (failed === undefined) continue;
      const message = `nothing writes ${failed.operand.text} and the known context lacks it`;
      out.push(
        makeDiagnostic("REF_UNRESOLVED", message, reference.pointer, {
          callId: phantom.id,
          hint: unresolvedHint(builder, failed.operand, failed.verdict, readerId),
        }),
      );
    }
  }
}

/** Judges one operand of a reader (a compiled call's entry, or a phantom's id): undefined when resolved. */
type OperandJudge<R> = (builder: PlanBuilder, reader: R, operand: Reference, atAdd: boolean) => Verdict;

/**
 * The first unresolved operand of an expression none of whose `||` alternatives resolves (an alternative
 * fails at its first `&&` operand `judge` does not resolve), with its verdict; undefined when one resolves.
 */
function firstUnresolved<R>(
  builder: PlanBuilder,
  reader: R,
  expression: InputExpression,
  judge: OperandJudge<R>,
  atAdd: boolean,
): { readonly operand: Reference; readonly verdict: Verdict } | undefined {
  let first: { readonly operand: Reference; readonly verdict: Verdict } | undefined;
  for (const gate of expression.alternatives) {
    let resolvable = true;
    for (const operand of gate) {
      const verdict = judge(builder, reader, operand, atAdd);
      if (verdict === undefined) continue;
      first ??= { operand, verdict };
      resolvable = false;
      break;
    }
    if (resolvable) return undefined;
  }
  return first;
}

/** {@link OperandJudge} of a phantom call's operand: any writer of the plan resolves it (`atAdd`: batch only). */
function judgePhantomOperand(
  builder: PlanBuilder,
  readerId: string,
  reference: Reference,
  _atAdd: boolean,
): Verdict {
  if (reference.kind === "calls" && reference.path.length === 0) return WHOLE_CALLS;
  if (builder.writesOverlapping(reference.kind, reference.path)) return undefined;
  if (reference.kind === "calls") return judgeCalls(builder, readerId, reference);
  return judgeContext(builder, reference);
}

/**
 * Whether a call added later may still write into `kind` (a writable kind, or one the engine fills from
 * the plan's calls, like `†calls`): then a path of it nothing writes yet is not unresolved before close.
 */
function writableLater(builder: PlanBuilder, kind: string): boolean {
  const info = builder.settings.kinds.get(kind);
  return info === undefined || info.writable || info.engineManaged;
}

/**
 * Judges one operand: resolved by an in-plan writer, or by the known context. `atAdd` (streaming, the call
 * just arrived): an operand of a kind a later call may still write is not judged (it waits for a writer).
 */
export function judgeOperand(
  builder: PlanBuilder,
  entry: CallEntry,
  reference: Reference,
  atAdd = false,
): Verdict {
  // `†calls` whole: no value has that name (the store keeps each output by its call; run, validate and
  // `get` would each have to invent one)
  if (reference.kind === "calls" && reference.path.length === 0) return WHOLE_CALLS;
  const links = entry.writers.get(reference.text);
  if (links !== undefined && links.length > 0)
    return atAdd || !builder.typedWriters ? undefined : excludedByWriters(builder, links, reference);
  if (atAdd && writableLater(builder, reference.kind)) return undefined;
  if (builder.phantomTargets.hasOverlap(reference.kind, reference.path)) return undefined;
  if (reference.kind === "calls") return judgeCalls(builder, entry.call.id, reference);
  const verdict = judgeContext(builder, reference);
  return verdict?.near === true ? (selfReadVerdict(entry, reference) ?? verdict) : verdict;
}

/**
 * The verdict on a read of a path the reading call itself writes (`{ "query": "†state.q", "_outputPath":
 * "†state.q" }`) that the known context lacks: "no call of this plan writes it" is untrue there; the call
 * reads the value from before the run (SPEC §6), so it needs an earlier writer or the thread to hold it.
 */
function selfReadVerdict(entry: CallEntry, reference: Reference): Verdict {
  const outputPath = entry.call.outputPath;
  if (outputPath === undefined) return undefined;
  for (const targets of outputPath.alternatives)
    for (const target of targets)
      if (target.kind === reference.kind && pathsOverlap(target.path, reference.path))
        return {
          hint: `this call writes ${target.text} itself, and a call reads its own output path's value from before the run: it needs an earlier writer (a previous run) or the thread to hold it`,
        };
  return undefined;
}

/**
 * Verdicts of `excludedByWriters` on lists of `CACHED_FROM` or more writers, by writer list and reference
 * text (one list serves a text's readers: R readers of W accumulating writers are judged in W + R steps,
 * not W × R).
 */
const excludedCache = new WeakMap<readonly WriterLink[], Map<string, Verdict | null>>();

/**
 * Shorter writer lists are judged again for each reader: one or two writers cost less to judge than the
 * cache costs to ask (a lookup in a table of every writer list of the plan, and a map per list kept as long
 * as the compiled plan: ~200 B per call of a 10k-call plan, in a weak table the collector must walk).
 */
const CACHED_FROM = 3;

/**
 * The verdict on an operand every in-plan writer of which certainly cannot hold its path: each writes a
 * path above it with `set`, by its first alternative (the one checked against the tool's output schema at
 * run time; a later one may hold any JSON or the error), and its output schema excludes the rest of the
 * path (or its latent `_output` lacks it). `†state.user.fullName` beside a writer of `†state.user` whose
 * output is `{name, age}` then ends `blocked` at run time: said at validation instead.
 */
function excludedByWriters(
  builder: PlanBuilder,
  links: readonly WriterLink[],
  reference: Reference,
): Verdict {
  if (links.length < CACHED_FROM) return judgeWriters(builder, links, reference);
  let byText = excludedCache.get(links);
  const known = byText?.get(reference.text);
  if (known !== undefined) return known ?? undefined;
  const verdict = judgeWriters(builder, links, reference);
  if (byText === undefined) {
    byText = new Map();
    excludedCache.set(links, byText);
  }
  byText.set(reference.text, verdict ?? null);
  return verdict;
}

function judgeWriters(builder: PlanBuilder, links: readonly WriterLink[], reference: Reference): Verdict {
  const shown = judgeEveryWriterAbove(builder, links, reference, (writer, rest) => {
    if (writer.call.hasOutput)
      return getAtPath(writer.call.output, rest).found
        ? undefined
        : { id: writer.id, output: undefined, rest };
    const output = writer.tool.storedOutputSchema ?? writer.tool.outputSchema;
    return output === undefined || !schemaExcludesPath(output, rest)
      ? undefined
      : { id: writer.id, output, rest };
  });
  if (shown === undefined) return undefined;
  const what = shown.output === undefined ? "its _output" : `its output (${schemaSummary(shown.output)})`;
  const general = `call "${shown.id}" writes the path above it, and ${what} has nothing at ${formatPath(shown.rest)}`;
  const better =
    outputItselfHint(reference, shown.rest) ??
    (shown.output === undefined ? undefined : listReadByName(shown.output, reference, shown.rest));
  return { hint: better === undefined ? general : `${better} (${general})`, near: false };
}

/** Names models add to a path to mean "the call's output" (`†calls.s.output`). */
const OUTPUT_WORDS: ReadonlySet<string | number> = new Set(["output", "result", "value", "data"]);

/**
 * `†calls.s is the output itself: read "†calls.s"` when the reference adds one of `OUTPUT_WORDS` to what a
 * writer writes whole (`rest`, the path below the writer's target, is just that word).
 */
function outputItselfHint(reference: Reference, rest: Path): string | undefined {
  if (rest.length !== 1 || !OUTPUT_WORDS.has(rest[0] as string | number)) return undefined;
  const whole = formatReference(reference.kind, reference.path.slice(0, -1));
  return `${whole} is the output itself: read ${JSON.stringify(whole)}`;
}

/**
 * `†state.orders is a list: read one of its items, e.g. "†state.orders[0].total"` when the reference names a
 * member of what the output schema makes an array (its `type` admits arrays, not objects).
 */
function listReadByName(output: JsonObject, reference: Reference, rest: Path): string | undefined {
  const above = reference.path.length - rest.length;
  for (let at = 0; at < rest.length; at++) {
    if (typeof rest[at] !== "string") continue;
    const level = schemaAtPath(output, rest.slice(0, at));
    if (level === undefined || !typeForbids(level, "object") || typeForbids(level, "array")) continue;
    // only an item that can hold the rest is suggested (not for a list of strings)
    if (schemaExcludesPath(output, [...rest.slice(0, at), 0, ...rest.slice(at)])) return undefined;
    const list = reference.path.slice(0, above + at);
    const item = formatReference(reference.kind, [...list, 0, ...reference.path.slice(above + at)]);
    return `${formatReference(reference.kind, list)} is a list: read one of its items, e.g. ${JSON.stringify(item)}`;
  }
  return undefined;
}

/**
 * REF_UNRESOLVED for every expression none of whose `||` alternatives can resolve (an alternative
 * fails when any of its `&&` operands has no in-plan writer and the known context lacks it). `atAdd`:
 * only the operands no later call can write are judged (see `judgeOperand`).
 */
export function unresolvedReferences(builder: PlanBuilder, entry: CallEntry, atAdd = false): Diagnostic[] {
  let out: Diagnostic[] | undefined;
  const context = builder.settings.context;
  for (const reference of entry.call.references) {
    if (readsUnreadableKind(context, entry.tool.name, reference)) continue;
    const value = reference.value;
    if (value.type === "reference")
      out = checkExpression(builder, entry, reference, value.expression, out, atAdd);
    else
      for (const part of value.parts)
        if (typeof part !== "string") out = checkExpression(builder, entry, reference, part, out, atAdd);
  }
  return out ?? [];
}

/** Adds the REF_UNRESOLVED of one expression, if any, to `out` (created on the first one). */
function checkExpression(
  builder: PlanBuilder,
  entry: CallEntry,
  reference: EntryReference,
  expression: InputExpression,
  out: Diagnostic[] | undefined,
  atAdd: boolean,
): Diagnostic[] | undefined {
  const misnamed = misnamedOperand(builder, entry, expression, atAdd);
  if (misnamed !== undefined)
    return pushUnresolved(builder, entry, reference, misnamed.operand, misnamed.verdict, out);
  const failed = firstUnresolved(builder, entry, expression, judgeOperand, atAdd);
  if (failed === undefined) return out;
  return pushUnresolved(builder, entry, reference, failed.operand, failed.verdict, out);
}

/**
 * The first `†calls.<id>` operand of a fallback or gate that names a value by a name it never has (see
 * `wrongName`): taking the next alternative would hide the model's mistake behind a default value. Only
 * `calls` operands without an in-plan writer are judged, so other expressions cost nothing more.
 */
function misnamedOperand(
  builder: PlanBuilder,
  entry: CallEntry,
  expression: InputExpression,
  atAdd: boolean,
): { readonly operand: Reference; readonly verdict: Verdict } | undefined {
  if (expression.alternatives.length < 2) return undefined;
  for (const gate of expression.alternatives)
    for (const operand of gate) {
      if (operand.kind !== "calls") continue;
      const verdict = atAdd ? misnamedAtAdd(builder, entry, operand) : judgeOperand(builder, entry, operand);
      if (verdict?.wrongName === true) return { operand, verdict };
    }
  return undefined;
}

/**
 * While streaming, when the call arrives: a `†calls.<id>` operand of a call already added with an
 * `_outputPath` (no later call can change that: ids are unique). Other `calls` operands wait for close.
 */
function misnamedAtAdd(builder: PlanBuilder, entry: CallEntry, operand: Reference): Verdict {
  if (operand.path.length === 0) return WHOLE_CALLS;
  const id = operand.path[0];
  if (typeof id !== "string" || (entry.writers.get(operand.text)?.length ?? 0) > 0) return undefined;
  return namedCallWithOutputPath(builder, entry.call.id, id);
}

/** Adds a REF_UNRESOLVED for `operand` of `reference` to `out` (created on the first one). */
function pushUnresolved(
  builder: PlanBuilder,
  entry: CallEntry,
  reference: EntryReference,
  operand: Reference,
  verdict: Verdict,
  out: Diagnostic[] | undefined,
): Diagnostic[] {
  const message = `nothing writes ${operand.text} and the known context lacks it`;
  const diagnostic = makeDiagnostic("REF_UNRESOLVED", message, reference.pointer, {
    callId: entry.call.id,
    hint: unresolvedHint(builder, operand, verdict, entry.call.id),
  });
  if (out === undefined) return [diagnostic];
  out.push(diagnostic);
  return out;
}

type EntryReference = CallEntry["call"]["references"][number];

/** The hint of a REF_UNRESOLVED: the verdict's, with the did-you-mean (see near-reference-hint.ts) first. */
function unresolvedHint(
  builder: PlanBuilder,
  reference: Reference,
  verdict: Verdict,
  readerId: string,
): string | undefined {
  const general = verdict?.hint;
  const near = verdict?.near === true ? nearReferenceHint(builder, reference, readerId) : undefined;
  if (near === undefined) return general;
  if (near.replaces || general === undefined) return near.text;
  return `${near.text} (${general})`;
}
