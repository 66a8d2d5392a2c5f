import type { StateStore } from "@obelisk/state";
import { afterEach, describe, expect, it } from "vitest";
import { Controller } from "./__fixtures__/controlled-tools.js";
import { crashable } from "./__fixtures__/crashable-store.js";
import { deferred, until } from "./__fixtures__/deferred.js";
import { rejectionOf } from "./__fixtures__/error-codes.js";
import { storeKinds } from "./__fixtures__/stores.js";
import { createEngine, type Engine, type ToolDefinition } from "./index.js";

// The s35 embedder review (H1): resume did not look at the run it continued. A run one resume had continued
// was resumed again — by a second replica of the README's start-up loop that waited for the thread, or by
// calling resume twice — and a `fresh`, non-idempotent tool sent its e-mail a second time.

/** `mail` is fresh and not idempotent: it sends each time it runs (`sent`). */
function mailTool(sent: string[]): ToolDefinition {
  return {
    name: "mail",
    fresh: true,
    idempotent: false,
    run: (args) => {
      sent.push((args as { to: string }).to);
      return "sent";
    },
  };
}

/** `g` waits for the test; the e-mail goes out after it. */
const plan = [
  { _id: "g", _tool: "gate", key: "g", _outputPath: "†state.g" },
  { _id: "mail", _tool: "mail", to: "bob", after: "†state.g", _outputPath: "†state.mail" },
];

/** Flushes microtasks until the asynchronous `check` holds (no timers); throws if it never does. */
async function eventually(check: () => Promise<boolean>): Promise<void> {
  for (let turn = 0; turn < 1000; turn++) if (await check()) return;
  throw new Error("condition never became true");
}

/** `store`, counting the thread locks asked for (a resume that asked waits for the thread or holds it). */
function countingLocks(store: StateStore): { readonly store: StateStore; calls(): number } {
  let locks = 0;
  const counted = new Proxy(store, {
    get(target, key, receiver) {
      const value: unknown = Reflect.get(target, key, receiver);
      if (key !== "lockThread" || typeof value !== "function") return value;
      return (...args: unknown[]) => {
        locks++;
        return value.apply(target, args);
      };
    },
  });
  return { store: counted, calls: () => locks };
}

describe.each(storeKinds())("a run is resumed once, on the $name store", (kind) => {
  const engines: Engine[] = [];
  afterEach(async () => {
    for (const engine of engines.splice(0)) await engine.close().catch(() => undefined);
    kind.cleanup();
  });

  /** A live engine (waiting up to a minute for a thread) on a store where a run of `plan` died with `g` in flight. */
  async function afterCrash(): Promise<{
    engine: Engine;
    control: Controller;
    sent: string[];
    crashedId: string;
    store: StateStore;
    lockCalls: () => number;
  }> {
    const store = kind.open();
    const dying = crashable(store);
    const first = new Controller();
    const sent: string[] = [];
    void createEngine({ tools: [first.tool("gate"), mailTool(sent)], store: dying.store }).run(plan, {
      threadId: "t",
    });
    await until(() => first.started.length === 1);
    const [crashed] = await store.listRuns({ threadId: "t" as never, limit: 1 });
    dying.crash();
    const counted = countingLocks(store);
    const control = new Controller();
    const engine = createEngine({
      tools: [control.tool("gate"), mailTool(sent)],
      store: counted.store,
      lockWaitMs: 60_000,
    });
    engines.push(engine);
    return { engine, control, sent, crashedId: crashed?.runId as string, store, lockCalls: counted.calls };
  }

  /** Resumes `runId` on `engine`, letting its `g` finish. */
  async function resumeToEnd(engine: Engine, control: Controller, runId: string) {
    const resumed = engine.resume(runId);
    await until(() => control.pending.has("g"));
    control.finish("g");
    return resumed;
  }

  it("a second resume of a run waits for the first, then is refused: the e-mail goes out once", async () => {
    const { engine, control, sent, crashedId, lockCalls } = await afterCrash();
    const one = engine.resume(crashedId);
    await until(() => control.started.length === 1);
    const two = rejectionOf(engine.resume(crashedId));
    // the second resume waits for the thread the first holds
    await until(() => lockCalls() === 2);
    control.finish("g");
    const first = await one;
    expect(first.calls.mail?.status).toBe("succeeded");
    const error = await two;
    expect(error.code).toBe("RUN_NOT_RESUMABLE");
    expect(error.data).toMatchObject({ runId: crashedId, resumedBy: first.runId });
    expect(sent).toEqual(["bob"]);
    expect(control.started).toEqual(["g"]);
  });

  it("resuming a run a second time is refused, records nothing and releases the thread", async () => {
    const { engine, control, sent, crashedId, store } = await afterCrash();
    const first = await resumeToEnd(engine, control, crashedId);
    expect(first.status).toBe("succeeded");
    const runs = (await engine.runs.list()).map((run) => run.runId);

    const error = await rejectionOf(engine.resume(crashedId));
    expect(error.code).toBe("RUN_NOT_RESUMABLE");
    expect(error.data).toEqual({ runId: crashedId, status: "cancelled", resumedBy: first.runId });
    expect(error.message).toBe(
      `run "${crashedId}" cannot be resumed: run "${first.runId}" resumed it already (that run is succeeded)`,
    );
    expect(error.hint).toMatch(/^send the plan with run to run it again/);
    expect(sent).toEqual(["bob"]);
    expect((await engine.runs.list()).map((run) => run.runId)).toEqual(runs);
    // the thread is free: an engine that does not wait gets it at once
    const next = createEngine({ tools: [new Controller().tool("gate"), mailTool([])], store });
    expect((await next.run([{ _tool: "mail", to: "eve" }], { threadId: "t" })).status).toBe("succeeded");
  });

  it("a succeeded run resumed once is refused the second time", async () => {
    const { engine, control, sent } = await afterCrash();
    const ran = engine.run(plan, { threadId: "u" });
    await until(() => control.pending.has("g"));
    control.finish("g");
    const original = await ran;
    expect(original.status).toBe("succeeded");
    control.pending.clear();
    // its own records satisfy its calls: nothing runs again (decision 0045)
    const resumed = await engine.resume(original.runId);
    expect(resumed.calls.mail?.status).toBe("satisfied");
    const error = await rejectionOf(engine.resume(original.runId));
    expect(error.data).toEqual({ runId: original.runId, status: "succeeded", resumedBy: resumed.runId });
    expect(sent).toEqual(["bob"]);
  });

  it("a run superseded by a run of the same plan is refused: its calls ran in that run", async () => {
    const { engine, control, sent, crashedId } = await afterCrash();
    const again = engine.run(plan, { threadId: "t" });
    await until(() => control.pending.has("g"));
    control.finish("g");
    const superseding = await again;
    expect(sent).toEqual(["bob"]);
    const error = await rejectionOf(engine.resume(crashedId));
    expect(error.code).toBe("RUN_NOT_RESUMABLE");
    expect(error.data).toEqual({ runId: crashedId, status: "cancelled" });
    expect(error.message).toContain(`it was cancelled: superseded by run ${superseding.runId}`);
    expect(sent).toEqual(["bob"]);
  });

  it("a run given up with runs.cancel is refused", async () => {
    const { engine, sent, crashedId } = await afterCrash();
    await engine.runs.cancel(crashedId, { reason: "tool renamed" });
    const error = await rejectionOf(engine.resume(crashedId));
    expect(error.data).toEqual({ runId: crashedId, status: "cancelled" });
    expect(error.message).toMatch(/it was cancelled: tool renamed/);
    expect(sent).toEqual([]);
  });

  it("a resume that crashed in turn: the run it resumed is refused, with the hint to resume the crashed resume", async () => {
    const { engine, control, sent, crashedId, store } = await afterCrash();
    const dying = crashable(store);
    const second = new Controller();
    void createEngine({ tools: [second.tool("gate"), mailTool(sent)], store: dying.store }).resume(crashedId);
    await until(() => second.started.length === 1);
    const [crashedResume] = await store.listRuns({ threadId: "t" as never, limit: 1 });
    dying.crash();
    const error = await rejectionOf(engine.resume(crashedId));
    expect(error.data).toMatchObject({ runId: crashedId, resumedBy: crashedResume?.runId });
    expect(error.hint).toMatch(new RegExp(`^resume run ${crashedResume?.runId} instead`));
    // resuming the crashed resume continues both
    const last = await resumeToEnd(engine, control, crashedResume?.runId as string);
    expect(last.status).toBe("succeeded");
    expect(sent).toEqual(["bob"]);
  });

  it("a resume that waited for the run it resumes satisfies the calls that run completed meanwhile (automatic ids kept)", async () => {
    const store = kind.open();
    const dying = crashable(store);
    const sent: string[] = [];
    const mailGate = deferred();
    let mailing = 0;
    const slowMail: ToolDefinition = {
      ...mailTool(sent),
      run: async (args) => {
        mailing++;
        await mailGate.promise;
        sent.push((args as { to: string }).to);
        return "sent";
      },
    };
    // no _id: the automatic ids must come out as the first run gave them, its mail$1 output included
    const noIds = [
      { _tool: "mail", to: "bob" },
      { _tool: "gate", key: "g", _outputPath: "†state.g" },
    ];
    const first = new Controller();
    void createEngine({ tools: [first.tool("gate"), slowMail], store: dying.store }).run(noIds, {
      threadId: "t",
    });
    await until(() => mailing === 1 && first.started.length === 1);
    const [running] = await store.listRuns({ threadId: "t" as never, limit: 1 });
    const counted = countingLocks(store);
    const control = new Controller();
    const engine = createEngine({
      tools: [control.tool("gate"), slowMail],
      store: counted.store,
      lockWaitMs: 60_000,
    });
    engines.push(engine);
    const resumed = engine.resume(running?.runId as string);
    // it has read the run (running, nothing completed) and waits for the thread
    await until(() => counted.calls() === 1);
    mailGate.resolve(undefined);
    await until(() => sent.length === 1);
    // the first run's process dies with g in flight, its mail recorded
    await eventually(async () =>
      (await store.listCallRecords(running?.runId as never)).some((call) => call.status === "succeeded"),
    );
    dying.crash();
    await until(() => control.pending.has("g"));
    control.finish("g");
    const result = await resumed;
    expect(Object.keys(result.calls).sort()).toEqual(["gate$2", "mail$1"]);
    expect(result.calls.mail$1?.status).toBe("satisfied");
    expect(result.calls.gate$2?.status).toBe("succeeded");
    expect(sent).toEqual(["bob"]);
  });
});
