import { AsyncResource } from "node:async_hooks";
import { type Ranked, ranksBefore, SlotHeap } from "./slot-heap.js";

/** A call waiting for its slots (see {@link CallLimiter.run}). */
interface Waiting extends Ranked {
  readonly slots: ToolSlots;
  readonly task: () => unknown;
  /** The async context the call asked in: its task runs in it, whichever call's end or turn starts it. */
  readonly context: AsyncResource;
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: unknown) => void;
  /** Started, or its run aborted while it waited (then left in its heap, skipped when it comes up). */
  gone: boolean;
}

/** The calls asked under one run's signal, and whether that run is aborted (set by the signal's one listener). */
interface RunCalls {
  readonly asked: Waiting[];
  aborted: boolean;
}

/** One tool's slots and the calls of it waiting for one. */
interface ToolSlots {
  readonly limit: number;
  running: number;
  readonly waiting: SlotHeap<Waiting>;
}

/**
 * Limits how many calls run at once: globally and per tool, highest priority first when slots are scarce
 * (SPEC §7). A call starts only when a slot of its tool and a global slot are both free, and then the free
 * global slot goes to the best waiting call whose tool has a free slot: no call holds one slot while it
 * waits for the other. (Two nested p-queues did: a low-priority call took its tool's only slot and then
 * waited in the global queue behind every higher-priority call, so the critical path's next call of that
 * tool waited behind all of them — decision 0020.) Calls asking in one turn (a drain of the runner, or
 * several runs sharing the limiter) are ranked together before any of them starts: the free slots are
 * handed out in a microtask, not at the first request. So a waiting call is started by whoever frees or
 * hands out its slot — another call's end, another run's turn —, and its task runs in the async context it
 * asked in (an `AsyncResource` taken per waiting call), not in that one's (decision 0100).
 */
export class CallLimiter {
  private readonly globalLimit: number;
  private running = 0;
  private readonly tools = new Map<string, ToolSlots>();
  /** Tools with calls waiting (a pick looks at their best only). */
  private readonly busy = new Set<ToolSlots>();
  private asked = 0;
  private scheduled = false;
  /**
   * The calls asked under each run's signal, for its one abort listener: a listener per waiting call made
   * every start O(listeners) (Node's EventTarget removes by a linear search), quadratic in a run's calls.
   * The listener also sets the run's `aborted`, read by each call instead of `signal.aborted`: every Node 20
   * AbortSignal has a hidden class of its own, so that read threw away the optimized code at each run.
   */
  private readonly bySignal = new WeakMap<AbortSignal, RunCalls>();
  /**
   * The signal the last call asked under and its calls: a call of the same run compares its signal instead
   * of looking it up. The lookup per call (`bySignal.get`) tied the optimized code of every function it was
   * inlined into to that run's signal (each Node 20 AbortSignal has a hidden class of its own), so each
   * finished run threw that code away and the next compiled it again — on the bench's 1k sparse DAG at
   * `concurrency: 4`, 694 → 416 optimizations in 10 runs, ~950k → 715k instructions per call (decision 0100,
   * amended). Held weakly: a finished run's signal and calls are not kept for the next run.
   */
  private lastSignal: WeakRef<AbortSignal> | undefined;
  private lastCalls: WeakRef<RunCalls> | undefined;

  /**
   * `concurrency` is the global limit (undefined: unbounded); `toolLimit` gives each tool's own limit.
   * One limiter may serve several runs at once (the engine shares one, so limits hold across threads).
   */
  constructor(
    concurrency: number | undefined,
    private readonly toolLimit: (tool: string) => number | undefined,
  ) {
    this.globalLimit = bounded(concurrency) ? concurrency : Number.POSITIVE_INFINITY;
  }

  /** True when a call of this tool needs no slot at all (the fast path: it starts at once). */
  unlimited(tool: string): boolean {
    return (
      this.globalLimit === Number.POSITIVE_INFINITY && this.slotsOf(tool).limit === Number.POSITIVE_INFINITY
    );
  }

  /**
   * Runs `task` when a slot of the tool and a global slot are free; its slots are given back when the
   * task's promise settles. Higher `priority` first, equal ones in the order they asked. Rejects with the
   * abort reason if `signal` (the call's run) is aborted before it starts. The task runs in the async
   * context (`AsyncLocalStorage` stores) of this call to `run`.
   */
  run<T>(tool: string, priority: number, signal: AbortSignal, task: () => T | Promise<T>): Promise<T> {
    if (this.unlimited(tool)) return Promise.resolve(task());
    return new Promise<T>((resolve, reject) => {
      const calls = this.lastCallsUnder(signal);
      if (calls.aborted) {
        reject(signal.reason);
        return;
      }
      const slots = this.slotsOf(tool);
      const waiting: Waiting = {
        priority,
        order: this.asked++,
        slots,
        task,
        context: new AsyncResource("ObeliskCallSlot"),
        resolve: resolve as (value: unknown) => void,
        reject,
        gone: false,
      };
      const asked = calls.asked;
      // the calls that started are dropped now and then: a run's list stays about as long as its queue
      if (asked.length >= 64 && (asked.length & 63) === 0) dropGone(asked);
      asked.push(waiting);
      slots.waiting.push(waiting);
      this.busy.add(slots);
      if (!this.scheduled) {
        this.scheduled = true;
        queueMicrotask(this.handOut);
      }
    });
  }

  /** {@link callsUnder}, the last signal's without a lookup (a run's calls ask one after another). */
  private lastCallsUnder(signal: AbortSignal): RunCalls {
    const last = this.lastCalls?.deref();
    if (last !== undefined && this.lastSignal?.deref() === signal) return last;
    const calls = this.callsUnder(signal);
    this.lastSignal = new WeakRef(signal);
    this.lastCalls = new WeakRef(calls);
    return calls;
  }

  /** The calls asked under `signal`, with the one listener that marks the run aborted and rejects those still waiting. */
  private callsUnder(signal: AbortSignal): RunCalls {
    let calls = this.bySignal.get(signal);
    if (calls === undefined) {
      const run: RunCalls = { asked: [], aborted: signal.aborted };
      calls = run;
      this.bySignal.set(signal, run);
      if (run.aborted) return run;
      const onAbort = (): void => {
        run.aborted = true;
        const list = run.asked;
        for (const waiting of list) {
          if (waiting.gone) continue;
          waiting.gone = true;
          waiting.reject(signal.reason);
        }
        list.length = 0;
      };
      signal.addEventListener("abort", onAbort, { once: true });
    }
    return calls;
  }

  private readonly handOut = (): void => {
    this.scheduled = false;
    this.pump();
  };

  /** Starts the best waiting calls while slots are free. */
  private pump(): void {
    while (this.running < this.globalLimit) {
      const next = this.best();
      if (next === undefined) return;
      this.start(next);
    }
  }

  /** The best waiting call whose tool has a free slot (its heap's best: O(tools with calls waiting)). */
  private best(): Waiting | undefined {
    let best: Waiting | undefined;
    for (const slots of this.busy) {
      if (slots.running >= slots.limit) continue;
      let head = slots.waiting.peek();
      while (head?.gone === true) {
        slots.waiting.pop();
        head = slots.waiting.peek();
      }
      if (head === undefined) this.busy.delete(slots);
      else if (best === undefined || ranksBefore(head, best)) best = head;
    }
    return best;
  }

  private start(waiting: Waiting): void {
    const { slots } = waiting;
    slots.waiting.pop();
    if (slots.waiting.size === 0) this.busy.delete(slots);
    waiting.gone = true;
    this.running++;
    slots.running++;
    const release = (): void => {
      this.running--;
      slots.running--;
      this.pump();
    };
    let result: unknown;
    try {
      result = waiting.context.runInAsyncScope(waiting.task);
    } catch (error) {
      release();
      waiting.reject(error);
      return;
    }
    Promise.resolve(result).then(
      (value) => {
        release();
        waiting.resolve(value);
      },
      (error: unknown) => {
        release();
        waiting.reject(error);
      },
    );
  }

  private slotsOf(tool: string): ToolSlots {
    let slots = this.tools.get(tool);
    if (slots === undefined) {
      const limit = this.toolLimit(tool);
      slots = {
        limit: bounded(limit) ? limit : Number.POSITIVE_INFINITY,
        running: 0,
        waiting: new SlotHeap<Waiting>(),
      };
      this.tools.set(tool, slots);
    }
    return slots;
  }
}

/** Removes the entries that started or were aborted, in place. */
function dropGone(list: Waiting[]): void {
  let kept = 0;
  for (const waiting of list) if (!waiting.gone) list[kept++] = waiting;
  list.length = kept;
}

function bounded(limit: number | undefined): limit is number {
  return limit !== undefined && Number.isFinite(limit) && limit >= 1;
}
