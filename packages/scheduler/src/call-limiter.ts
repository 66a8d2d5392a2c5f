import PQueue from "p-queue";

/** A call waiting to be handed to the queues (see {@link CallLimiter.run}). */
interface SlotRequest {
  readonly tool: string;
  readonly priority: number;
  readonly signal: AbortSignal;
  readonly task: () => unknown;
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: unknown) => void;
}

/** Higher priority first; `sort` is stable, so requests of equal priority keep their order. */
const byPriority = (a: SlotRequest, b: SlotRequest): number => b.priority - a.priority;

/**
 * Limits how many calls run at once: globally and per tool, highest priority first when slots are scarce.
 * p-queue starts a task the moment it is added if a slot is free, so the calls that ask for a slot in one
 * turn (a drain of the runner, or several runs sharing the limiter) are collected and handed to the queues
 * at the end of that turn (a microtask, no timer), highest priority first: the first free slots go to the
 * longest remaining critical path too, not to the first call in plan order (SPEC §7, bug M6).
 */
export class CallLimiter {
  private readonly global: PQueue | undefined;
  private readonly perTool = new Map<string, PQueue | undefined>();
  private requests: SlotRequest[] = [];

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
   * its tool never holds a global slot). Calls asking in the same turn are ranked by `priority` (higher
   * first, equal ones in the order they asked) before any of them starts. Rejects with the abort reason if
   * `signal` (the call's run) is aborted before it starts.
   */
  run<T>(tool: string, priority: number, signal: AbortSignal, task: () => T | Promise<T>): Promise<T> {
    if (this.unlimited(tool)) return Promise.resolve(task());
    return new Promise<T>((resolve, reject) => {
      this.requests.push({
        tool,
        priority,
        signal,
        task,
        resolve: resolve as (value: unknown) => void,
        reject,
      });
      if (this.requests.length === 1) queueMicrotask(this.handOver);
    });
  }

  /** Hands this turn's requests to the queues, highest priority first. */
  private readonly handOver = (): void => {
    const requests = this.requests;
    this.requests = [];
    if (requests.length > 1) requests.sort(byPriority);
    for (const request of requests) {
      try {
        request.resolve(this.enqueue(request));
      } catch (error) {
        request.reject(error);
      }
    }
  };

  private enqueue(request: SlotRequest): Promise<unknown> {
    const { tool, priority, signal, task } = request;
    const global = this.global;
    const inner = global === undefined ? task : () => global.add(task, { priority, signal });
    const queue = this.queueOf(tool);
    if (queue === undefined) return Promise.resolve(inner());
    return queue.add(inner, { priority, signal });
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
