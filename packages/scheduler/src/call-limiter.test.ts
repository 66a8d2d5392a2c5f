import { AsyncLocalStorage } from "node:async_hooks";
import { createToolRegistry, type ToolContext } from "@obelisk/compiler";
import { describe, expect, it, vi } from "vitest";
import { flush } from "./__fixtures__/deferred.js";
import { runPlan } from "./__fixtures__/run-plan.js";
import { CallLimiter } from "./call-limiter.js";

/** Tasks that record when they start and finish when the test says so. */
function gatedTasks() {
  const started: string[] = [];
  const finish = new Map<string, () => void>();
  const task = (name: string) => () => {
    started.push(name);
    return new Promise<string>((resolve) => finish.set(name, () => resolve(name)));
  };
  return { started, finish: (name: string) => finish.get(name)?.(), task };
}

const signal = new AbortController().signal;

describe("CallLimiter (M6: critical path first for the first free slots too)", () => {
  it("ranks the calls asking in one turn by priority before any starts, FIFO among equals", async () => {
    const limiter = new CallLimiter(1, () => undefined);
    const { started, finish, task } = gatedTasks();
    const done = [
      limiter.run("t", 1, signal, task("lone")),
      limiter.run("t", 2, signal, task("mid-a")),
      limiter.run("t", 4, signal, task("head")),
      limiter.run("t", 2, signal, task("mid-b")),
    ];
    await flush();
    expect(started).toEqual(["head"]);
    for (const name of ["head", "mid-a", "mid-b"]) {
      finish(name);
      await flush();
    }
    finish("lone");
    expect(await Promise.all(done)).toEqual(["lone", "mid-a", "head", "mid-b"]);
    expect(started).toEqual(["head", "mid-a", "mid-b", "lone"]);
  });

  it("ranks by priority under a tool's own limit, with several slots", async () => {
    const limiter = new CallLimiter(undefined, (tool) => (tool === "t" ? 2 : undefined));
    const { started, task } = gatedTasks();
    limiter.run("t", 0, signal, task("a"));
    limiter.run("t", 0, signal, task("b"));
    limiter.run("t", 3, signal, task("c"));
    limiter.run("t", 5, signal, task("d"));
    await flush();
    expect(started).toEqual(["d", "c"]);
    expect(limiter.unlimited("other")).toBe(true);
    expect(await limiter.run("other", 0, signal, () => 7)).toBe(7);
  });

  it("a call asking while the run is aborted is rejected with the abort reason and never starts", async () => {
    const limiter = new CallLimiter(1, () => undefined);
    const controller = new AbortController();
    const { started, task } = gatedTasks();
    const asked = limiter.run("t", 1, controller.signal, task("x"));
    controller.abort(new Error("stop"));
    await expect(asked).rejects.toThrow("stop");
    expect(started).toEqual([]);
  });

  it("reads a run signal's aborted once per run, not per call, and still refuses calls after the abort", async () => {
    // every Node 20 AbortSignal has a hidden class of its own: a read per call deoptimized the runner at each run
    const controller = new AbortController();
    let reads = 0;
    const signal = {
      get aborted() {
        reads++;
        return controller.signal.aborted;
      },
      get reason() {
        return controller.signal.reason;
      },
      addEventListener: controller.signal.addEventListener.bind(controller.signal),
    } as unknown as AbortSignal;
    const limiter = new CallLimiter(1, () => undefined);
    const { started, task } = gatedTasks();
    limiter.run("t", 1, signal, task("a"));
    const waiting = limiter.run("t", 1, signal, task("b"));
    await flush();
    expect(started).toEqual(["a"]);
    controller.abort(new Error("stop"));
    await expect(waiting).rejects.toThrow("stop");
    await expect(limiter.run("t", 1, signal, task("c"))).rejects.toThrow("stop");
    expect(started).toEqual(["a"]);
    expect(reads).toBe(1);
  });

  it("looks a run's calls up when the signal changes, not per call; runs taking turns keep their own", async () => {
    // the lookup per call (WeakMap.get keyed by the signal) tied the optimized code to each run's signal (stop 41)
    const lookups = new Map<unknown, number>();
    const get = WeakMap.prototype.get;
    const spy = vi.spyOn(WeakMap.prototype, "get").mockImplementation(function (
      this: WeakMap<object, unknown>,
      key,
    ) {
      lookups.set(key, (lookups.get(key) ?? 0) + 1);
      return get.call(this, key);
    });
    try {
      const first = new AbortController();
      const second = new AbortController();
      const limiter = new CallLimiter(1, () => undefined);
      const { started, finish, task } = gatedTasks();
      limiter.run("t", 9, first.signal, task("a"));
      const waiting = [1, 2, 3].map((i) => limiter.run("t", 1, first.signal, task(`a${i}`)));
      expect(lookups.get(first.signal)).toBe(1);
      // two runs asking in turn: each change of signal looks up, each run keeps its own calls
      const other = limiter.run("t", 1, second.signal, task("b"));
      const last = limiter.run("t", 1, first.signal, task("a4"));
      expect(lookups.get(second.signal)).toBe(1);
      expect(lookups.get(first.signal)).toBe(2);
      await flush();
      first.abort(new Error("stop"));
      for (const call of [...waiting, last]) await expect(call).rejects.toThrow("stop");
      finish("a");
      await flush();
      expect(started).toEqual(["a", "b"]);
      finish("b");
      await expect(other).resolves.toBe("b");
    } finally {
      spy.mockRestore();
    }
  });
});

describe("CallLimiter: a call holds no slot while it waits for the other (scheduling review 1)", () => {
  it("a low-priority call waiting for the global slot does not keep its tool's slot from a better call", async () => {
    const limiter = new CallLimiter(1, (tool) => (tool === "a" ? 1 : undefined));
    const { started, finish, task } = gatedTasks();
    limiter.run("b", 4, signal, task("xhead"));
    limiter.run("a", 1, signal, task("aleaf"));
    await flush();
    expect(started).toEqual(["xhead"]);
    limiter.run("a", 3, signal, task("ahigh"));
    limiter.run("b", 2, signal, task("p1"));
    limiter.run("b", 2, signal, task("p2"));
    finish("xhead");
    await flush();
    // before, aleaf held tool a's only slot while it waited: p1, p2 and aleaf all started before ahigh
    expect(started).toEqual(["xhead", "ahigh"]);
    for (const name of ["ahigh", "p1", "p2"]) {
      finish(name);
      await flush();
    }
    expect(started).toEqual(["xhead", "ahigh", "p1", "p2", "aleaf"]);
  });

  it("a call waiting for its tool's slot does not hold a global one: another tool's call starts", async () => {
    const limiter = new CallLimiter(2, (tool) => (tool === "a" ? 1 : undefined));
    const { started, finish, task } = gatedTasks();
    limiter.run("a", 5, signal, task("a1"));
    limiter.run("a", 5, signal, task("a2"));
    limiter.run("b", 1, signal, task("b1"));
    await flush();
    expect(started).toEqual(["a1", "b1"]);
    finish("a1");
    await flush();
    expect(started).toEqual(["a1", "b1", "a2"]);
  });

  it("a waiting call whose run is aborted leaves the queue: the next call gets the slot", async () => {
    const limiter = new CallLimiter(1, () => undefined);
    const controller = new AbortController();
    const { started, finish, task } = gatedTasks();
    limiter.run("t", 3, signal, task("running"));
    const dropped = limiter.run("t", 2, controller.signal, task("dropped"));
    limiter.run("t", 1, signal, task("next"));
    await flush();
    controller.abort(new Error("cancelled"));
    await expect(dropped).rejects.toThrow("cancelled");
    finish("running");
    await flush();
    expect(started).toEqual(["running", "next"]);
  });

  it("a task that throws gives its slots back and rejects", async () => {
    const limiter = new CallLimiter(1, () => 1);
    const { started, task } = gatedTasks();
    const thrown = limiter.run("t", 2, signal, () => {
      throw new Error("boom");
    });
    limiter.run("t", 1, signal, task("after"));
    await expect(thrown).rejects.toThrow("boom");
    await flush();
    expect(started).toEqual(["after"]);
  });
});

describe("CallLimiter: a call's task runs in the async context it asked in (decision 0100)", () => {
  const als = new AsyncLocalStorage<string>();
  /** Asks for `count` calls of tool `t` under request `name`'s context; each task records the context it sees. */
  const ask = (limiter: CallLimiter, seen: string[], name: string, count: number) =>
    als.run(name, () =>
      Array.from({ length: count }, (_, i) =>
        limiter.run("t", 1, signal, async () => {
          seen.push(`${name}/${i} in ${als.getStore()}`);
          await Promise.resolve();
          return i;
        }),
      ),
    );

  it.each([
    ["a free slot for each (handed out in one microtask)", 100, undefined],
    ["global concurrency 1 (started by another request's call ending)", 1, undefined],
    ["a tool's own concurrency 1", undefined, 1],
  ])("%s", async (_label, concurrency, toolLimit) => {
    const limiter = new CallLimiter(concurrency, () => toolLimit);
    const seen: string[] = [];
    await Promise.all(["A", "B", "C"].flatMap((name) => ask(limiter, seen, name, 3)));
    expect(seen).toHaveLength(9);
    expect(seen.filter((entry) => !entry.endsWith(`in ${entry[0]}`))).toEqual([]);
  });
});

describe("runs with scarce slots (M6)", () => {
  it("concurrency 1: the head of the longest chain starts before a lone call listed first", async () => {
    const started: string[] = [];
    const finish = new Map<string, () => void>();
    const registry = createToolRegistry([
      {
        name: "t",
        run: (_args: unknown, context: ToolContext) => {
          started.push(context.callId);
          return new Promise<number>((resolve) => finish.set(context.callId, () => resolve(1)));
        },
      },
    ]);
    const running = runPlan(
      registry,
      [
        { _tool: "t", _id: "lone", _outputPath: "†state.lone" },
        { _tool: "t", _id: "head", _outputPath: "†state.c0" },
        { _tool: "t", _id: "c1", v: "†state.c0", _outputPath: "†state.c1" },
        { _tool: "t", _id: "c2", v: "†state.c1", _outputPath: "†state.c2" },
      ],
      { concurrency: 1 },
    );
    // head's slot goes to c1 (a longer remaining path than lone's), not to lone, which waited first;
    // then lone and c2 tie (1 call left each) and lone, which asked first, goes first
    for (const next of ["head", "c1", "lone", "c2"]) {
      await flush(50);
      expect(started.at(-1)).toBe(next);
      finish.get(next)?.();
    }
    const { result } = await running;
    expect(result.status).toBe("succeeded");
    expect(started).toEqual(["head", "c1", "lone", "c2"]);
  });
});
