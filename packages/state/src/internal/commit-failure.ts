import type { CommitResult } from "../store-types.js";
import type { ThreadChange } from "./thread-model.js";

/** A planned commit the store refuses: its answer, with nothing changed. */
export type CommitFailure = Extract<CommitResult, { ok: false }>;

/** The refusal of a commit, naming the reference it concerns when there is one. */
export const failure = (
  code: CommitFailure["error"]["code"],
  message: string,
  reference?: string,
): CommitFailure => ({
  ok: false,
  error: reference === undefined ? { code, message } : { code, message, reference },
});

/** True for a planned failure (as opposed to a planned change, or a part of one). */
export const isCommitFailure = <Planned extends object = ThreadChange>(
  planned: Planned | CommitFailure,
): planned is CommitFailure => "error" in planned;
