import { ObeliskError } from "@obelisk/core";
import { type Command, InvalidArgumentError, Option } from "commander";

/** `--rerun` as given: `true` (alone: every call of an idempotent tool) or the call ids. */
export type RerunFlag = true | string[];

/** The argument `--rerun` must follow (a variadic flag takes the words after it): `run`'s or `resume`'s. */
interface RerunPlacement {
  /** True for a word that is this argument, not a call id (`plan.json`, a run id). */
  readonly taken: (word: string) => boolean;
  /** What the word is, as the refusal names it: `the plan file`, `the run id`. */
  readonly what: string;
  /** The command with the flag in its place, as the refusal shows it (`run <word> --rerun [ids…] --tools …`). */
  readonly usage: (word: string) => string;
}

/** A run id as the engine makes them (a UUID). */
const RUN_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Where `run`'s `--rerun` goes: after the plan file. */
export const AFTER_PLAN: RerunPlacement = {
  taken: (word) => /\.json$/i.test(word),
  what: "the plan file",
  usage: (word) => `run ${word} --rerun [ids…] --tools …`,
};

/** Where `resume`'s `--rerun` goes: after the run id. */
export const AFTER_RUN_ID: RerunPlacement = {
  taken: (word) => RUN_ID.test(word),
  what: "the run id",
  usage: (word) => `resume ${word} --rerun [ids…] --tools …`,
};

/**
 * Adds `--rerun [ids...]` (decision 0050): alone, every call of an idempotent tool; with ids, those calls.
 * An empty id, or the command's argument taken as an id (`placement`), is a flag error saying what to give.
 */
export function withRerun(command: Command, placement: RerunPlacement, description: string): Command {
  return command.addOption(
    new Option("--rerun [ids...]", description).argParser(
      (value: string, previous: RerunFlag | undefined): string[] => {
        if (value === "")
          throw new InvalidArgumentError(
            "a call id cannot be empty: give the _id of each call to run again (--rerun a b), or --rerun alone for every call of an idempotent tool",
          );
        if (placement.taken(value))
          throw new InvalidArgumentError(
            `"${value}" looks like ${placement.what}: give --rerun after it (${placement.usage(value)})`,
          );
        return [...(Array.isArray(previous) ? previous : []), value];
      },
    ),
  );
}

/** The library's name for the option, at the start of its messages (`rerun names a call …`). */
const LIBRARY_NAME = /^rerun\b/;

/**
 * Runs `work` (a run or a resume given `rerun`); a USAGE error about the option names the flag, `--rerun`,
 * instead of the library's option (`rerun names a call the plan does not have: "x"`), hint and data kept.
 */
export async function withRerunFlagNamed<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (!ObeliskError.is(error, "USAGE") || !LIBRARY_NAME.test(error.message)) throw error;
    throw new ObeliskError(error.code, error.message.replace(LIBRARY_NAME, "--rerun"), {
      cause: error,
      data: error.data,
      ...(error.hint === undefined ? {} : { hint: error.hint }),
    });
  }
}
