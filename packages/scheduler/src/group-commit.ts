import { ObeliskError } from "@obelisk/core";
import type { Awaitable, CallCommit, CommitResult } from "@obelisk/state";
import { after, isThenable } from "./awaitable.js";
import { type CommitHost, committed, completionOf } from "./call-commit.js";
import type { Completion } from "./completion-commit.js";

/** One serialized group commit step: the results completed during a drain, through one store transaction. */
export function groupCommit(host: CommitHost, indexes: readonly number[]): Awaitable<void> {
  const endedAt = host.now();
  host.recordContext.endedAt = endedAt;
  const completions: Completion[] = new Array(indexes.length);
  const commits: CallCommit[] = new Array(indexes.length);
  for (let at = 0; at < indexes.length; at++) {
    const completion = completionOf(host, indexes[at] as number);
    completions[at] = completion;
    commits[at] = completion.commit;
  }
  // A store without group commit takes the same commits one by one: what reaches the store, and in
  // which order (write log, records, ties in retention), does not depend on the store (differential
  // review F1–F4: the memory store used to commit, and record failures, as each call ended).
  const store = host.options.store;
  if (store.commitCalls === undefined) return commitEach(host, indexes, completions, commits, endedAt);
  return after(store.commitCalls(commits), (answers) => {
    if (answers.length !== indexes.length)
      throw new ObeliskError("STORE_ERROR", "the store answered a group commit with the wrong count");
    return applyCommitted(host, indexes, completions, endedAt, answers, 0, indexes.length);
  });
}

/**
 * A group through `store.commitCall`, one by one. Synchronous answers are applied once all are in, as a
 * group commit's are; from the first asynchronous answer on, each commit is applied as soon as it is
 * durable, so a dependent does not wait for its siblings' commits (regression review 2).
 */
function commitEach(
  host: CommitHost,
  indexes: readonly number[],
  completions: readonly Completion[],
  commits: readonly CallCommit[],
  endedAt: number,
): Awaitable<void> {
  const store = host.options.store;
  const answers: CommitResult[] = new Array(commits.length);
  for (let at = 0; at < commits.length; at++) {
    const answer = store.commitCall(commits[at] as CallCommit);
    if (isThenable(answer)) {
      const pending = answer;
      return after(applyCommitted(host, indexes, completions, endedAt, answers, 0, at), () =>
        commitRest(host, indexes, completions, commits, endedAt, at, pending),
      );
    }
    answers[at] = answer;
  }
  return applyCommitted(host, indexes, completions, endedAt, answers, 0, commits.length);
}

/** Waits for the commit at `at`, applies it, then commits and applies the rest one at a time. */
function commitRest(
  host: CommitHost,
  indexes: readonly number[],
  completions: readonly Completion[],
  commits: readonly CallCommit[],
  endedAt: number,
  at: number,
  pending: PromiseLike<CommitResult>,
): Promise<void> {
  return Promise.resolve(pending).then(async (answer) => {
    await committed(host, indexes[at] as number, completions[at] as Completion, endedAt, answer);
    for (let next = at + 1; next < commits.length; next++) {
      const result = await host.options.store.commitCall(commits[next] as CallCommit);
      await committed(host, indexes[next] as number, completions[next] as Completion, endedAt, result);
    }
  });
}

/** Applies and settles a group's answers in order from `start` (no closure per call while they are synchronous). */
function applyCommitted(
  host: CommitHost,
  indexes: readonly number[],
  completions: readonly Completion[],
  endedAt: number,
  answers: readonly CommitResult[],
  start: number,
  end: number,
): Awaitable<void> {
  for (let at = start; at < end; at++) {
    const done = committed(
      host,
      indexes[at] as number,
      completions[at] as Completion,
      endedAt,
      answers[at] as CommitResult,
    );
    if (isThenable(done))
      return Promise.resolve(done).then(() =>
        applyCommitted(host, indexes, completions, endedAt, answers, at + 1, end),
      );
  }
  return undefined;
}
