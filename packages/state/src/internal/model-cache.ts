import type { ThreadId } from "@obelisk/core";
import { StoreHistory } from "./store-history.js";
import type { ThreadModel } from "./thread-model.js";

/**
 * The stores' cache of per-thread models ({@link CommitStore} builds on it): loaded from storage on first
 * use, kept in least-recently-used order when a bound is set, the idle ones past it dropped.
 */
export abstract class ModelCache extends StoreHistory {
  /**
   * The cached models, least recently used first when {@link idleModelBound} is finite (a model used again is
   * moved to the end). The memory store's are its data: never dropped (its bound stays `Infinity`).
   */
  protected readonly models = new Map<string, ThreadModel>();
  /**
   * Most models kept cached that no run or pending change uses ({@link modelInUse}); past it the least
   * recently used go, and the next use reloads them from storage. `Infinity` (the default): every model
   * stays — where the cache is the data. SQLite: its `cachedThreads` option.
   */
  protected idleModelBound = Number.POSITIVE_INFINITY;
  /** The thread last moved to the end of {@link models} (a use of it again needs no move). */
  private newestModel: string | undefined;
  /** Loads a thread's model from storage (undefined: the thread does not exist). */
  protected abstract loadModel(threadId: ThreadId): ThreadModel | undefined;

  /** Forgets the cached model so the next access reloads it from storage (no-op where the cache is the data). */
  protected invalidate(_threadId: ThreadId): void {}

  /** The cached model of a thread the store holds, loading it; undefined (nothing created) for another. */
  protected storedModel(threadId: ThreadId): ThreadModel | undefined {
    this.assertOpen();
    let model = this.models.get(threadId);
    if (model === undefined) {
      model = this.loadModel(threadId);
      if (model !== undefined) this.cacheModel(threadId, model);
    } else if (threadId !== this.newestModel && this.idleModelBound !== Number.POSITIVE_INFINITY) {
      // used again: to the end of the least-recently-used order
      this.models.delete(threadId);
      this.models.set(threadId, model);
      this.newestModel = threadId;
    }
    return model;
  }

  /**
   * Caches a model as the most recently used, then drops the least recently used idle ones past
   * {@link idleModelBound} — with a bound of 0 this very model too, unless in use: the caller's operation
   * goes on with it (every change it persists is in storage, which the next use reloads).
   */
  protected cacheModel(threadId: ThreadId, model: ThreadModel): void {
    this.models.delete(threadId);
    this.models.set(threadId, model);
    this.newestModel = threadId;
    this.trimModels();
  }

  /**
   * True while the thread's model must stay cached whatever the bound: a run of this store holds its lock,
   * or the model holds what storage lacks (a read-only SQLite store's expiry). Default: never.
   */
  protected modelInUse(_threadId: ThreadId): boolean {
    return false;
  }

  /** How many of the cached models are {@link modelInUse} (counted by the backend without a scan). */
  protected cachedModelsInUse(): number {
    return 0;
  }

  /**
   * Drops the least recently used models no run or pending change uses until at most
   * {@link idleModelBound} idle ones are cached (nothing to do while the cache holds no more than it).
   */
  protected trimModels(): void {
    const models = this.models;
    const bound = this.idleModelBound;
    if (models.size <= bound) return;
    let excess = models.size - this.cachedModelsInUse() - bound;
    if (excess <= 0) return;
    for (const threadId of models.keys()) {
      if (this.modelInUse(threadId as ThreadId)) continue;
      models.delete(threadId); // deleting while iterating a Map is safe: the iteration goes on
      if (threadId === this.newestModel) this.newestModel = undefined;
      this.modelDropped(threadId as ThreadId);
      if (--excess === 0) break;
    }
  }

  /** Called when {@link trimModels} drops a thread's model (what the backend keeps beside it may go too). */
  protected modelDropped(_threadId: ThreadId): void {}
}
