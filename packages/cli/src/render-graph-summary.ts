import { graphToJson } from "@obelisk/compiler";
import { plural } from "@obelisk/core";
import type { CompiledPlan, ValidationResult } from "obelisk";
import { displayText } from "./display-text.js";
import type { Output } from "./output.js";

// Loaded by the commands that need it: importing the compiler (ajv, zod, graphology) at start-up would
// slow every command, `--help` and `state` included.

/** The json document of `validate` (SPEC §6 shape plus the graph, its joins included: decision 0080). */
export function validationJson(result: ValidationResult): Record<string, unknown> {
  return {
    ok: result.ok,
    planHash: result.planHash,
    diagnostics: result.diagnostics,
    graph: graphToJson(result.compiled),
  };
}

/** Calls named in a line's "after": the rest are counted (a 1,000 × 1,000 fan-in printed a million ids). */
const SHOWN_AFTER = 8;

/** The calls one call waits for: the first {@link SHOWN_AFTER} and how many. */
interface WaitedFor {
  readonly first: string[];
  readonly count: number;
}

/**
 * The calls `call` waits for (its writers, each once, in the order its references name them), read from
 * the compiled call: the text summary never builds the graphology graph. It counts pairs, which the graph
 * draws through a join node when a path has many writers and many readers (decision 0080), and a filter of
 * every edge per call took 50 s for 1,000 writers × 1,000 readers.
 */
function waitedFor(call: CompiledPlan["calls"][number]): WaitedFor | undefined {
  const seen = new Set<string>();
  const first: string[] = [];
  for (const links of call.writers.values())
    for (const link of links) {
      // in a plan with a CYCLE a call may be among its own writers (decision 0042)
      if (seen.has(link.callId) || link.callId === call.id) continue;
      seen.add(link.callId);
      if (first.length < SHOWN_AFTER) first.push(link.callId);
    }
  return seen.size === 0 ? undefined : { first, count: seen.size };
}

/** Where a call writes: its `_outputPath` alternatives (a quoted key may hold bidi controls: escaped), or `†calls.<id>`. */
const targetsText = (call: CompiledPlan["calls"][number]): string =>
  call.outputPath === undefined
    ? `†calls.${call.id}`
    : displayText(
        call.outputPath.alternatives
          .map((targets) => targets.map((target) => target.text).join(" && "))
          .join(" || "),
      );

/** Uncompiled calls named in the count line: the rest are counted. */
const SHOWN_NOT_COMPILED = 3;

/** The codes that keep a call out of the compiled plan (its diagnostic says why). */
const NOT_COMPILED_CODES: ReadonlySet<string> = new Set([
  "CALL_SHAPE",
  "TOOL_UNKNOWN",
  "CALL_ID_INVALID",
  "CALL_ID_DUPLICATE",
  "PLAN_LIMIT",
]);

/**
 * The call count of the summary: `8 calls`, or, when some calls of the document were not compiled (an unknown
 * tool, a bad or repeated `_id`…), `8 of 10 calls (2 not compiled: /plan/0 TOOL_UNKNOWN, …)` — the graph
 * lists the compiled ones only (s32 review L11: "graph 8 calls" for a plan of 10).
 */
function callCount(result: ValidationResult): string {
  const calls = result.compiled.calls;
  const sources = result.compiled.document?.calls ?? [];
  if (sources.length <= calls.length) return plural(calls.length, "call");
  const compiled = new Set(calls.map((call) => call.index));
  const missing = sources.filter((source) => !compiled.has(source.index));
  const named = missing.slice(0, SHOWN_NOT_COMPILED).map(({ pointer }) => {
    const why = result.diagnostics.find(
      (d) =>
        d.severity === "error" &&
        NOT_COMPILED_CODES.has(d.code) &&
        (d.pointer === pointer || d.pointer.startsWith(`${pointer}/`)),
    );
    return why === undefined ? pointer : `${pointer} ${why.code}`;
  });
  const more = missing.length > named.length ? `, … (+${missing.length - named.length})` : "";
  return `${calls.length} of ${plural(sources.length, "call")} (${missing.length} not compiled: ${named.join(", ")}${more})`;
}

/** Prints the plan hash and a graph summary: each call with its tool, what it waits for and where it writes. */
export function printGraphSummary(output: Output, result: ValidationResult): void {
  const c = output.colors;
  // A document that is not JSON has no plan to approve: its hash only names the text that was read.
  const notJson = result.diagnostics.some((diagnostic) => diagnostic.code === "JSON_SYNTAX");
  output.line(
    `${c.dim("plan hash")} ${result.planHash}${notJson ? c.dim(" (of the text: it is not JSON, nothing to approve)") : ""}`,
  );
  const calls = result.compiled.calls;
  const waits = calls.map(waitedFor);
  const roots = waits.filter((after) => after === undefined).length;
  const dependencies = waits.reduce((sum, after) => sum + (after?.count ?? 0), 0);
  output.line(
    `${c.dim("graph")}     ${callCount(result)}, ${plural(dependencies, "dependency", "dependencies")}, ${roots} can start at once`,
  );
  calls.forEach((call, index) => {
    const after = waits[index];
    const more =
      after === undefined || after.count <= after.first.length
        ? ""
        : `, … (+${after.count - after.first.length})`;
    const waiting = after === undefined ? "" : c.dim(` after ${after.first.join(", ")}${more}`);
    output.line(`  ${c.bold(call.id)} ${c.dim(`(${call.tool})`)}${waiting} → ${targetsText(call)}`);
  });
}
