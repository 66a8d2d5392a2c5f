import { createToolRegistry } from "@obelisk/compiler";
import { describe, expect, it } from "vitest";
import { deferred, flush } from "./__fixtures__/deferred.js";
import { failingStore, recordEvents } from "./__fixtures__/run-events.js";
import { runPlan } from "./__fixtures__/run-plan.js";
import { EventHub } from "./event-hub.js";
import { holdRunEnd } from "./hold-run-end.js";

const registry = createToolRegistry([{ name: "val", run: (args: { v?: unknown }) => args.v ?? null }]);
const plan = [{ _tool: "val", _id: "a", v: 1, _outputPath: "†state.a" }];

describe("holdRunEnd: a host emits run-end once its own run record is finished (SRE review 4)", () => {
  it("every event but run-end goes through at once; run-end when released, and only once", async () => {
    const { hub, names } = recordEvents();
    const held = holdRunEnd(hub);
    const { result } = await runPlan(registry, plan, { events: held.events });
    expect(result.status).toBe("succeeded");
    expect(names()).toEqual([
      "run-start",
      "call-ready:a",
      "call-start:a",
      "state-write:a",
      "call-end:a=succeeded",
    ]);
    held.release(); // the host finished its record here
    held.release();
    expect(names().at(-1)).toBe("run-end=succeeded");
    expect(names().filter((name) => name.startsWith("run-end"))).toHaveLength(1);
  });

  it("a run that dies: its failed run-end waits for the release too", async () => {
    const { hub, names, events } = recordEvents();
    const held = holdRunEnd(hub);
    const store = failingStore(1, new Error("disk full"));
    await expect(runPlan(registry, plan, { store, events: held.events })).rejects.toMatchObject({
      code: "STORE_ERROR",
    });
    expect(names().at(-1)).toBe("call-end:a=failed");
    held.release();
    expect(events.at(-1)).toMatchObject({
      type: "run-end",
      status: "failed",
      error: { code: "STORE_ERROR" },
    });
  });

  it("released before the run ends, run-end goes straight through", async () => {
    const { hub, names } = recordEvents();
    const held = holdRunEnd(hub);
    const gate = deferred<unknown>();
    const slow = createToolRegistry([{ name: "val", run: () => gate.promise }]);
    const running = runPlan(slow, plan, { events: held.events });
    await flush();
    held.release();
    gate.resolve(1);
    await running;
    expect(names().at(-1)).toBe("run-end=succeeded");
  });

  it("an idle hub is used as it is (no events are built)", () => {
    const hub = new EventHub();
    expect(holdRunEnd(hub).events).toBe(hub);
  });
});
