import PQueue from "p-queue";

/** Limits how many calls run at once: globally and per tool, highest priority first when slots are scarce. */
export class CallLimiter {
  private readonly global: PQueue | undefined;
  private readonly perTool = new Map<string, PQueue | undefined>();

  /**
   * `concurrency` is the global limit (undefined: unbounded); `toolLimit` gives each tool's own limit.
   * One limiter may serve several runs at once (the engine shares one, so limits hold across threads).
   */
  constructor(
    concurrency: number | undefined,
    private readonly toolLimit: (tool: string) => number | undefined,
  ) {
    this.global = bounded(concurrency) ? new PQueue({ concurrency }) : undefined;
  }

  /** True when a call of this tool needs no slot at all (the fast path: it starts at once). */
  unlimited(tool: string): boolean {
    return this.global === undefined && this.queueOf(tool) === undefined;
  }

  /**
   * Runs `task` when a slot of the tool and a global slot are free (tool slot first, so a call waiting for
   * its tool never holds a global slot). Rejects with the abort reason if `signal` (the call's run) is
   * aborted before it starts.
   */
  run<T>(tool: string, priority: number, signal: AbortSignal, task: () => T | Promise<T>): Promise<T> {
    const global = this.global;
    const inner = global === undefined ? task : () => global.add(task, { priority, signal });
    const queue = this.queueOf(tool);
    if (queue === undefined) return Promise.resolve(inner());
    return queue.add(inner, { priority, signal }) as Promise<T>;
  }

  private queueOf(tool: string): PQueue | undefined {
    if (this.perTool.has(tool)) return this.perTool.get(tool);
    const limit = this.toolLimit(tool);
    const queue = bounded(limit) ? new PQueue({ concurrency: limit }) : undefined;
    this.perTool.set(tool, queue);
    return queue;
  }
}

function bounded(limit: number | undefined): limit is number {
  return limit !== undefined && Number.isFinite(limit) && limit >= 1;
}
