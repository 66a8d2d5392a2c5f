import { plural } from "@obelisk/core";
import { ENGINE_CLOSED_REASON, type LockHolder, type RunDetails } from "obelisk";
import { displayText } from "./display-text.js";
import { DEFAULT_STORE } from "./open-store.js";
import type { Output } from "./output.js";
import { indentedStack } from "./progress.js";
import { renderRunHolder } from "./render-run-holder.js";
import { printTable } from "./render-run-result.js";
import { renderUnfinishedCalls, unfinishedCount } from "./render-unfinished-calls.js";
import { shellWord } from "./shell-word.js";
import { formatDuration, statusColor, statusSymbol } from "./status-style.js";
import type { UnfinishedCall } from "./unfinished-calls.js";

const PREVIEW_CHARS = 200;

/** A value's compact JSON, cut to PREVIEW_CHARS; what JSON.stringify leaves raw (C1, bidi controls) escaped. */
function preview(value: unknown): string {
  const text = displayText(JSON.stringify(value) ?? "undefined");
  return text.length <= PREVIEW_CHARS
    ? text
    : `${text.slice(0, PREVIEW_CHARS)}…(+${text.length - PREVIEW_CHARS} chars)`;
}

/**
 * Prints one recorded run in text: its status, times, why it was interrupted (`reason`, kept when a resume
 * then cancelled it), input, a table of its call records and the calls of its plan that have none
 * (`unfinished`); `store` goes into the suggested commands when it is not the default. A running run is
 * told who holds its thread (`holder`: see `runHolder`), an interrupted one how to continue (`resume`), and
 * so is a cancelled one that may be resumed (`resumable`: Ctrl-C stopped it, with calls left to finish).
 * The stacks of the errors tools threw (decision 0049) are printed below the table when `stacks` is true
 * (`--verbose`, `OBELISK_DEBUG`); otherwise a line says how to see them.
 */
export function renderRunDetails(
  output: Output,
  details: RunDetails,
  store: string,
  unfinished: readonly UnfinishedCall[],
  holder: LockHolder | null | undefined,
  stacks = false,
  resumable = false,
): void {
  const c = output.colors;
  const { run, calls } = details;
  const interrupted = run.status === "interrupted";
  // a run the store found interrupted (its process stopped) has the store's reason, and its endedAt is when
  // the store found it so; one engine.close() stopped (decision 0030) ended when it stopped, and has the
  // engine's reason (none when recorded before 2026-11-26)
  const found = interrupted && run.reason !== undefined && run.reason !== ENGINE_CLOSED_REASON;
  const took =
    run.endedAt === undefined || found
      ? ""
      : ` in ${formatDuration(Date.parse(run.endedAt) - Date.parse(run.startedAt))}`;
  output.line(
    `${statusColor(c, run.status)(c.bold(`Run ${run.status}`))}${took} — ${plural(calls.length, "call record")}${unfinishedCount(unfinished)}`,
  );
  output.line(c.dim(`  run ${run.runId} · thread ${displayText(run.threadId)} · plan ${run.planHash}`));
  const ended = run.endedAt === undefined ? "" : ` · ${found ? "found interrupted" : "ended"} ${run.endedAt}`;
  output.line(c.dim(`  started ${run.startedAt}${ended}`));
  if (run.reason !== undefined) output.line(`  ${c.dim("reason")} ${displayText(run.reason)}`);
  output.line(`  ${c.dim("input")} ${preview(run.input)}`);
  if (calls.length > 0) {
    output.line();
    const rows: string[][] = [["call", "tool", "status", "attempts", "wrote / reason"]];
    for (const call of calls) {
      const status = statusColor(c, call.status)(`${statusSymbol(call.status)} ${call.status}`);
      const branch = call.branch === undefined || call.branch === 0 ? "" : c.dim(` (branch ${call.branch})`);
      // a satisfied call that stored nothing under its own id: where its value is (decision 0102, Amended)
      const wrote =
        call.wrote.length > 0
          ? displayText(call.wrote.join(", "))
          : call.outputId === undefined
            ? c.dim("—")
            : c.dim(`value at †calls.${displayText(call.outputId)}`);
      const error =
        call.error === undefined
          ? ""
          : c.red(` ${displayText(call.error.code ?? call.error.name)}: ${displayText(call.error.message)}`);
      const reason = call.reason === undefined ? "" : c.yellow(` ${displayText(call.reason)}`);
      rows.push([
        call.callId,
        call.tool,
        `${status}${branch}`,
        String(call.attempts),
        `${wrote}${error}${reason}`,
      ]);
    }
    printTable(output, rows);
  }
  const where = store === DEFAULT_STORE ? "" : ` --store ${shellWord(store)}`;
  const thrown = calls.filter((call) => call.error?.stack !== undefined);
  if (stacks) {
    for (const call of thrown) {
      output.line();
      output.line(`  ${c.bold(call.callId)} ${c.dim(`(${call.tool})`)}`);
      output.line(c.dim(indentedStack(call.error?.stack ?? "")));
    }
  }
  renderUnfinishedCalls(output, run, unfinished);
  renderRunHolder(output, run, holder, where);
  output.line();
  if (interrupted) {
    output.line(
      c.dim(
        `${found ? "its process stopped" : "its engine was closed"} before it ended; continue it (completed calls are satisfied): ${output.command} resume ${shellWord(run.runId)} --tools <module>${where}`,
      ),
    );
  }
  // a run Ctrl-C cancelled is resumed as an interrupted one is (decision 0070): the end of the run said so,
  // and it must still be found here later (review s41 r2 #4)
  if (resumable)
    output.line(
      c.dim(
        `it was cancelled before it ended; finish what is left (completed calls are satisfied): ${output.command} resume ${shellWord(run.runId)} --tools <module>${where}`,
      ),
    );
  if (!stacks && thrown.length > 0) {
    const which =
      thrown.length === 1
        ? "stack of the error a tool threw"
        : `stacks of the ${thrown.length} errors tools threw`;
    output.line(c.dim(`the ${which}: ${output.command} runs show ${shellWord(run.runId)}${where} --verbose`));
  }
  output.line(
    c.dim(
      `the whole record (plan, parameters, results): ${output.command} runs show ${shellWord(run.runId)}${where} --format json`,
    ),
  );
}
