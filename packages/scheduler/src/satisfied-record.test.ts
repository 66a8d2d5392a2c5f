import { createToolRegistry } from "@obelisk/compiler";
import { asRunId } from "@obelisk/core";
import { createMemoryStore } from "@obelisk/state";
import { describe, expect, it } from "vitest";
import { runPlan } from "./__fixtures__/run-plan.js";

const registry = createToolRegistry([{ name: "echo", run: (args: { v: unknown }) => args.v }]);

const PLAN = [
  { _tool: "echo", _id: "written", v: 1, _outputPath: "†state.x" },
  { _tool: "echo", _id: "stored", v: 2 },
  { _tool: "echo", _id: "branched", v: 3, _outputPath: "†state.y || †state.z" },
];

describe("a satisfied call's record", () => {
  it("names the run whose record satisfied it (satisfiedBy); a call that ran names none", async () => {
    const store = createMemoryStore();
    await runPlan(registry, PLAN, { store, runId: asRunId("first") });
    await runPlan(registry, [...PLAN, { _tool: "echo", _id: "new", v: 4 }], {
      store,
      runId: asRunId("again"),
    });
    const records = await store.listCallRecords(asRunId("again"));
    expect(records.map((record) => [record.callId, record.status, record.satisfiedBy])).toEqual([
      ["written", "satisfied", "first"],
      ["stored", "satisfied", "first"],
      ["branched", "satisfied", "first"],
      ["new", "succeeded", undefined],
    ]);
    const first = await store.listCallRecords(asRunId("first"));
    for (const record of first) expect(record).not.toHaveProperty("satisfiedBy");
  });
});
