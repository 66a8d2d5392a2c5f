import type { Limits } from "@obelisk/core";
import type { RunResult } from "obelisk";
import { limitsWords } from "./limits-option.js";
import { DEFAULT_STORE } from "./open-store.js";
import { shellWord } from "./shell-word.js";

const APPROVAL = /†state\.approvals(?:\.[^\s,;()[\]]+|\[[^\]]*\])+/g;

/** SQLite's name for a database in memory: `--store sqlite::memory:` keeps nothing after the command. */
export const IN_MEMORY_SQLITE = "sqlite::memory:";

/** `--thread <id>` and, off the default store, `--store <url>`: where a suggested command must look. */
export function threadFlags(threadId: string, store: string): string {
  return [
    "--thread",
    shellWord(threadId),
    ...(store === DEFAULT_STORE ? [] : ["--store", shellWord(store)]),
  ].join(" ");
}

/**
 * What `run` says of the calls an earlier run's identical call satisfied (decision 0050): how to run them
 * again — `--rerun`, or, after `--rerun` alone (which leaves tools that are not idempotent), their ids.
 */
function rerunNote(result: RunResult, rerun: true | readonly string[] | undefined): string | undefined {
  const satisfied = Object.keys(result.calls).filter((id) => result.calls[id]?.status === "satisfied");
  if (satisfied.length === 0) return undefined;
  const one = satisfied.length === 1;
  const calls = one ? "1 call" : `${satisfied.length} calls`;
  const them = one ? "it" : "them";
  if (rerun !== true)
    return `${calls} satisfied from an earlier run (same tool and parameters): pass --rerun to run ${them} again`;
  const ids = satisfied.map(shellWord).join(" ");
  return `${calls} still satisfied: ${one ? "its tool is" : "their tools are"} not idempotent, which --rerun alone leaves; to run ${them} again: --rerun ${ids}`;
}

/**
 * The commands to try after a run (starting with `command`: see `cliCommand`): inspect the state, run
 * satisfied calls again (`run` only), resume a cancelled run (with the same `--limits` and `--rerun`), see a
 * failed run's stack and send it again after the fix, give the approvals calls wait for.
 */
export function whatNext(
  result: RunResult,
  {
    command,
    store,
    tools,
    limits,
    offersRerun,
    rerun,
  }: {
    command: string;
    store: string;
    tools: string;
    limits?: Partial<Limits> | undefined;
    offersRerun?: boolean | undefined;
    rerun?: true | readonly string[] | undefined;
  },
): string[] {
  if (store === "memory") {
    return [
      "the memory store ends with this command; the default store (sqlite:.obelisk/state.db) keeps the state",
    ];
  }
  if (store === IN_MEMORY_SQLITE) {
    return [
      "sqlite::memory: is a SQLite database in memory: it ends with this command; give a file (sqlite:<file>) to keep the state",
    ];
  }
  const where = threadFlags(result.threadId, store);
  const lines = [`inspect what was stored: ${command} state summary ${where}`];
  const note = offersRerun === true ? rerunNote(result, rerun) : undefined;
  if (note !== undefined) lines.push(note);
  if (result.status === "cancelled")
    lines.push(
      `finish what is left:     ${resumeCommand(result.runId, { command, store, tools, limits, rerun })}`,
    );
  if (result.status === "failed") {
    // a failed run ended with no next step (review s41 r2 #7, decision 0103): the stack, and the re-send
    const thrown = Object.values(result.calls).some(
      (call) => call.status === "failed" && call.error.code === "TOOL_ERROR",
    );
    const storeFlag = store === DEFAULT_STORE ? "" : ` --store ${shellWord(store)}`;
    if (thrown)
      lines.push(
        `see the error's stack:   ${command} runs show ${shellWord(result.runId)}${storeFlag} --verbose`,
      );
    // (after a resume, which ended its run, the plan goes on in a new run: RUN_NOT_RESUMABLE otherwise)
    const again =
      offersRerun === true ? "run the same command again" : `send the plan again with ${command} run`;
    lines.push(
      `after the fix:           ${again} (completed calls are satisfied: the failed and blocked ones run)`,
    );
  }
  const approvals = new Set<string>();
  for (const call of Object.values(result.calls)) {
    if (call.status !== "waiting") continue;
    for (const match of call.reason?.matchAll(APPROVAL) ?? []) approvals.add(match[0]);
  }
  for (const ref of approvals) {
    lines.push(
      `give the approval:       ${command} state set --ref ${shellWord(ref)} --value <json> ${where}`,
    );
  }
  if (approvals.size > 0) {
    // a resume ended its run: the plan goes on in a new run (resuming it again is RUN_NOT_RESUMABLE)
    lines.push(
      offersRerun === true
        ? "then run the same command again: the waiting calls go on"
        : `then send the plan again with ${command} run (its completed calls are satisfied): the waiting calls go on`,
    );
    // decision 0048: false or null is a refusal only for tools that declare approvalParams
    lines.push(
      "to refuse: leave it unset, or --value false where the tool takes the approval as a parameter",
    );
  }
  return lines;
}

/**
 * The command that resumes run `runId` with the same tools, store, `--limits` and `--rerun` (a store file's
 * run; `--rerun` is not recorded with the run, decision 0050, so a resume needs it again).
 */
export function resumeCommand(
  runId: string,
  {
    command,
    store,
    tools,
    limits,
    rerun,
  }: {
    command: string;
    store: string;
    tools: string;
    limits?: Partial<Limits> | undefined;
    rerun?: true | readonly string[] | undefined;
  },
): string {
  const resume = ["resume", runId, "--tools", tools];
  if (store !== DEFAULT_STORE) resume.push("--store", store);
  resume.push(...limitsWords(limits));
  // last: the flag takes the words after it
  if (rerun !== undefined) resume.push("--rerun", ...(rerun === true ? [] : rerun));
  return `${command} ${resume.map(shellWord).join(" ")}`;
}
