import type { StateStore } from "@obelisk/state";
import { afterEach, describe, expect, it } from "vitest";
import { storeKinds } from "./__fixtures__/stores.js";
import { createEngine, type Engine, type ToolDefinition } from "./index.js";

// Decision 0114 (review s42 q1, finding 1): a merge into a missing path sets any value there; the stored-state
// check (decision 0091) then refused the plan's own re-send and resume ("merge needs an object there"), so the
// thread could not finish its plan. A call is not judged by the stored value it wrote itself.

/** `echo` returns its `v`; each run is counted by its call id. */
function echo(ran: string[]): ToolDefinition {
  return {
    name: "echo",
    run: (args, ctx) => {
      ran.push(ctx.callId);
      return (args as { v: unknown }).v;
    },
  };
}

const plan = [
  { _tool: "echo", _id: "m", v: 1, _outputPath: "†state.p", _outputMethod: "merge" },
  { _tool: "echo", _id: "n", v: "†state.p", _outputPath: "†state.q" },
];

describe.each(storeKinds())("a call's own stored write, on the $name store", (kind) => {
  const engines: Engine[] = [];
  afterEach(async () => {
    for (const engine of engines.splice(0)) await engine.close().catch(() => undefined);
    kind.cleanup();
  });

  function engine(store: StateStore, ran: string[]): Engine {
    const made = createEngine({ tools: [echo(ran)], store, concurrency: 1 });
    engines.push(made);
    return made;
  }

  it("resume after an interruption runs the rest; validate, a re-send and a streamed re-send accept it", async () => {
    const store = kind.open();
    const ran: string[] = [];
    const abort = new AbortController();
    const cut = await engine(store, ran).run(plan, {
      threadId: "t",
      signal: abort.signal,
      onEvent: (event) => {
        if (event.type === "call-end" && event.callId === "m") abort.abort();
      },
    });
    expect(cut.status).toBe("cancelled");
    expect(cut.state).toEqual({ p: 1 });
    // a new engine (over the same file for SQLite)
    const later = engine(kind.name === "memory" ? store : kind.open(), ran);
    expect((await later.validate(plan, { threadId: "t" })).diagnostics).toEqual([]);
    const resumed = await later.resume(cut.runId);
    expect(resumed.status).toBe("succeeded");
    expect([resumed.calls.m?.status, resumed.calls.n?.status]).toEqual(["satisfied", "succeeded"]);
    expect(resumed.state).toEqual({ p: 1, q: 1 });
    const again = await later.run(plan, { threadId: "t" });
    expect([again.status, again.calls.m?.status, again.calls.n?.status]).toEqual([
      "succeeded",
      "satisfied",
      "satisfied",
    ]);
    const stream = await later.open({ threadId: "t" });
    for (const call of plan) expect(stream.add(call).ok).toBe(true);
    expect((await stream.close()).status).toBe("succeeded");
    expect(ran).toEqual(["m", "n"]);
  });

  it("a one-call plan re-sent after it succeeded; another call's merge onto the value is still refused", async () => {
    const ran: string[] = [];
    const live = engine(kind.open(), ran);
    const one = [plan[0] as object];
    expect((await live.run(one, { threadId: "t" })).status).toBe("succeeded");
    expect((await live.run(one, { threadId: "t" })).calls.m?.status).toBe("satisfied");
    const other = [{ ...(plan[0] as object), _id: "other" }];
    const refused = await live.validate(other, { threadId: "t" });
    expect(refused.diagnostics.map((d) => [d.code, d.pointer])).toEqual([
      ["REF_TYPE_MISMATCH", "/0/_outputPath"],
    ]);
    await expect(live.run(other, { threadId: "t" })).rejects.toMatchObject({ code: "PLAN_INVALID" });
    expect(ran).toEqual(["m"]);
    // unnamed: the re-sent call gets a new automatic id (echo$2 for the echo$1 that wrote)
    const unnamed = [{ _tool: "echo", v: 2, _outputPath: "†state.u", _outputMethod: "merge" }];
    expect((await live.run(unnamed, { threadId: "t" })).status).toBe("succeeded");
    const resent = await live.run(unnamed, { threadId: "t" });
    expect(Object.values(resent.calls).map((call) => call.status)).toEqual(["satisfied"]);
    expect(ran).toEqual(["m", "echo$1"]);
  });
});
