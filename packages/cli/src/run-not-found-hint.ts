import { ObeliskError } from "@obelisk/core";
import type { Engine } from "obelisk";
import { DEFAULT_STORE } from "./open-store.js";
import { shellWord } from "./shell-word.js";

/** `--store <url>` as a suggested command repeats it (nothing for the default store). */
const storeFlag = (store: string): string => (store === DEFAULT_STORE ? "" : ` --store ${shellWord(store)}`);

/**
 * RUN_NOT_FOUND in the CLI's words: the store named (not "this engine's store"), `obelisk runs list` in place
 * of `engine.runs.list()`, and that a pruned run (or one whose thread was deleted) is gone, as the library
 * says it of `runs.prune`.
 */
function runNotFound(error: ObeliskError, store: string, command: string): ObeliskError {
  const runId = (error.data as { readonly runId?: unknown } | null)?.runId;
  const message =
    runId === undefined
      ? error.message
      : error.message.replace(
          /in this engine's store$/,
          store === "memory" ? "in the memory store (it holds only this command's runs)" : `in ${store}`,
        );
  // a memory store's runs list is always empty: the run is in the file it was recorded in (review s41 r2 #13)
  const hint =
    store === "memory"
      ? "give the store the run was recorded in: --store sqlite:<file> (the default, sqlite:.obelisk/state.db, when run had no --store)"
      : `${command} runs list${storeFlag(store)} lists the recorded runs, --status interrupted (and cancelled, for a run Ctrl-C stopped) the runs to resume; a run ${command} runs prune removed, or whose thread ${command} state delete removed, is gone`;
  return new ObeliskError(error.code, message, { cause: error, data: error.data, hint });
}

/**
 * RUN_NOT_RESUMABLE in the CLI's words: send the plan again with `obelisk run` (the library's hint names
 * `engine.runs.show(runId).run.plan`), or resume the run that continued it when that one is still open.
 */
async function runNotResumable(
  error: ObeliskError,
  store: string,
  command: string,
  engine: Pick<Engine, "runs"> | undefined,
): Promise<ObeliskError> {
  const data = error.data as { readonly runId?: unknown; readonly resumedBy?: unknown } | null;
  const runId = typeof data?.runId === "string" ? data.runId : undefined;
  const resumedBy = typeof data?.resumedBy === "string" ? data.resumedBy : undefined;
  const plan =
    runId === undefined
      ? ""
      : `; ${command} runs show ${shellWord(runId)}${storeFlag(store)} --format json has the plan it ran, in run.plan`;
  const again = `send the plan again with ${command} run: its completed calls are satisfied, not run twice${plan}`;
  const status =
    resumedBy === undefined || engine === undefined
      ? undefined
      : await engine.runs.show(resumedBy).then(
          (shown) => shown.run.status,
          () => undefined,
        );
  const hint =
    resumedBy !== undefined && (status === "running" || status === "interrupted")
      ? `${command} resume ${shellWord(resumedBy)}${storeFlag(store)} --tools <module> continues it instead; or ${again}`
      : again;
  return new ObeliskError(error.code, error.message, { cause: error, data: error.data, hint });
}

/**
 * Runs `work`; a RUN_NOT_FOUND or RUN_NOT_RESUMABLE it throws gets the CLI's hint (`obelisk runs list`,
 * `obelisk run`; `command` in place of `obelisk`) in place of the library's (`engine.runs.list()`,
 * `engine.runs.show(runId).run.plan`), which a CLI user cannot call. `engine` tells whether the run that
 * resumed a run is still open (then resuming that one is suggested).
 */
export async function withRunHints<T>(
  store: string,
  command: string,
  work: () => Promise<T>,
  engine?: Pick<Engine, "runs">,
): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (ObeliskError.is(error, "RUN_NOT_FOUND")) throw runNotFound(error, store, command);
    if (ObeliskError.is(error, "RUN_NOT_RESUMABLE"))
      throw await runNotResumable(error, store, command, engine);
    throw error;
  }
}
