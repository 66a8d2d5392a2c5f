import type { JsonObject, Path, Reference } from "@obelisk/core";
import { formatPath, formatReference, getAtPath } from "@obelisk/core";
import type { WriterLink } from "./compiled-plan.js";
import type { PlanBuilder } from "./plan-builder.js";
import type { Verdict } from "./reference-verdict.js";
import { schemaExcludesPath, typeForbids } from "./schema-excludes-path.js";
import { schemaSummary } from "./schema-summary.js";
import { schemaAtPath } from "./schema-types.js";
import { judgeEveryWriterAbove } from "./writers-above.js";

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
export function excludedByWriters(
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
