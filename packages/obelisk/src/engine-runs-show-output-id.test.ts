import { afterEach, describe, expect, it } from "vitest";
import { storeKinds } from "./__fixtures__/stores.js";
import { createEngine, type Engine } from "./index.js";

// Decision 0102 (Amended 2026-11-28, stop 42 f3 #1): a re-sent call without `_id` that is satisfied by an
// earlier call's record stores no copy; the run result and the `call-end` event said where its value is
// (`outputId`), but its stored record did not, so `runs.show` of a past run could not lead to the value.

describe.each(storeKinds())("runs.show of a re-sent unnamed call, on the $name store", (kind) => {
  const engines: Engine[] = [];
  afterEach(async () => {
    for (const engine of engines.splice(0)) await engine.close().catch(() => undefined);
    kind.cleanup();
  });

  it("its record names the call whose stored output holds the value; other records have no outputId", async () => {
    const engine = createEngine({
      tools: [{ name: "echo", run: (args) => (args as { v: unknown }).v }],
      store: kind.open(),
    });
    engines.push(engine);
    const plan = [{ _tool: "echo", v: { answer: 42 } }];
    const first = await engine.run(plan, { threadId: "t" });
    const again = await engine.run(plan, { threadId: "t" });
    expect(again.calls.echo$2).toMatchObject({ status: "satisfied", outputId: "echo$1" });
    const { calls } = await engine.runs.show(again.runId);
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({
      callId: "echo$2",
      status: "satisfied",
      satisfiedBy: first.runId,
      wrote: [],
    });
    expect(calls[0]?.outputId).toBe("echo$1");
    // the value is where the record says
    expect(await engine.get("t", `†calls.${calls[0]?.outputId}`)).toEqual({
      found: true,
      value: { answer: 42 },
    });
    const [own] = (await engine.runs.show(first.runId)).calls;
    expect(own).not.toHaveProperty("outputId");
    // a satisfied call with _id stores under its own name: no outputId
    await engine.run([{ _tool: "echo", _id: "named", v: 1 }], { threadId: "t" });
    const named = await engine.run([{ _tool: "echo", _id: "named", v: 1 }], { threadId: "t" });
    const [kept] = (await engine.runs.show(named.runId)).calls;
    expect(kept).toMatchObject({ callId: "named", status: "satisfied" });
    expect(kept).not.toHaveProperty("outputId");
  });
});
