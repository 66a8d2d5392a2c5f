import type { ThreadId } from "@obelisk/core";
import type { Awaitable, CallCommit, CommitResult, StateStore } from "@obelisk/state";

/**
 * `store` as `setValue` is handed it by `engine.set`: its one call number is taken only once its commit is
 * accepted. `setValue` reserves a number (`obelisk-set$<n>`) before it commits; here that reservation answers
 * the number the store would give (`nextCallNumber`, nothing reserved) and an accepted commit reserves it, so
 * a refused write takes no number and the thread's next automatic ids do not shift (SPEC §11). The caller
 * holds the thread's lock: nobody reserves on the thread in between, so the number reserved is the one
 * answered. A store without `nextCallNumber` is returned as it is (its refused writes still take a number).
 */
export function numberOnCommit(store: StateStore): StateStore {
  const peek = store.nextCallNumber;
  if (peek === undefined) return store;
  /** The thread whose number was answered and not yet reserved. */
  let answered: ThreadId | undefined;
  const reserveCallNumbers = (threadId: ThreadId, count: number): Awaitable<number> => {
    if (count !== 1 || answered !== undefined) return store.reserveCallNumbers(threadId, count);
    answered = threadId;
    return peek.call(store, threadId);
  };
  const commitCall = async (commit: CallCommit): Promise<CommitResult> => {
    const threadId = commit.record.threadId;
    const result = await store.commitCall(commit);
    if (answered === threadId) {
      answered = undefined;
      if (result.ok) await store.reserveCallNumbers(threadId, 1);
    }
    return result;
  };
  return new Proxy(store, {
    get(target, key) {
      if (key === "reserveCallNumbers") return reserveCallNumbers;
      if (key === "commitCall") return commitCall;
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}
