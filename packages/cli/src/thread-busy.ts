import { ObeliskError } from "@obelisk/core";
import type { Engine, RunRecord } from "obelisk";
import { displayText } from "./display-text.js";
import { LOCK_WAIT_FLAG } from "./lock-wait-option.js";
import { DEFAULT_STORE } from "./open-store.js";
import { shellWord } from "./shell-word.js";

/** The one run recorded `running` on the thread (the run that holds it), or undefined (none, several, unreadable). */
async function holdingRun(engine: Engine, threadId: string): Promise<RunRecord | undefined> {
  try {
    const running = await engine.runs.list({ threadId, status: "running", limit: 2 });
    return running.length === 1 ? running[0] : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A THREAD_BUSY that refused this command, as the CLI reports it: the message names the run that holds the
 * thread (when one run of it is recorded `running`), and, when the command gave up waiting for the lock,
 * the hint says how to wait longer with `--lock-wait` (the command it suggests starts with `command`). A
 * THREAD_BUSY of a run that lost its lock mid-run or of a wait cancelled (Ctrl-C), and any other error, is
 * returned as it is.
 */
export async function explainThreadBusy(
  error: unknown,
  engine: Engine,
  store: string,
  command: string,
): Promise<unknown> {
  if (!ObeliskError.is(error, "THREAD_BUSY")) return error;
  const data = error.data as { threadId?: unknown; waitMs?: unknown; started?: unknown; cancelled?: unknown };
  if (typeof data?.threadId !== "string" || data.started === true || data.cancelled === true) return error;
  const run = await holdingRun(engine, data.threadId);
  const where = store === DEFAULT_STORE ? "" : ` --store ${shellWord(store)}`;
  const holder = run === undefined ? "" : `: run ${run.runId} holds it (started ${run.startedAt})`;
  const waitFor =
    run === undefined
      ? "wait for the run or edit that holds it to end"
      : `wait for run ${run.runId} to end (${command} runs show ${shellWord(run.runId)}${where})`;
  const waited =
    typeof data.waitMs === "number" && data.waitMs > 0 ? ` (this one waited ${data.waitMs} ms)` : "";
  const hint =
    typeof data.waitMs === "number"
      ? `runs on one thread never overlap: ${waitFor}, or let the command wait for the lock with ${LOCK_WAIT_FLAG} <ms>${waited}`
      : error.hint;
  return new ObeliskError("THREAD_BUSY", `${error.message}${holder}`, {
    cause: error,
    data: error.data,
    ...(hint === undefined ? {} : { hint: displayText(hint) }),
  });
}
