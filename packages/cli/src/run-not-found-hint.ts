import { ObeliskError } from "@obelisk/core";
import { DEFAULT_STORE } from "./open-store.js";
import { shellWord } from "./shell-word.js";

/**
 * Runs `work`; a RUN_NOT_FOUND it throws gets the CLI's hint (`obelisk runs list --store <store>` lists the
 * runs; `command` in place of `obelisk`) in place of the library's (`engine.runs.list()`), which a CLI user
 * cannot call.
 */
export async function withRunsListHint<T>(
  store: string,
  command: string,
  work: () => Promise<T>,
): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (!ObeliskError.is(error, "RUN_NOT_FOUND")) throw error;
    const where = store === DEFAULT_STORE ? "" : ` --store ${shellWord(store)}`;
    throw new ObeliskError(error.code, error.message, {
      cause: error,
      data: error.data,
      hint: `${command} runs list${where} lists the recorded runs (--status interrupted: the runs to resume)`,
    });
  }
}
