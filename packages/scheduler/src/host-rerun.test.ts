import { createToolRegistry } from "@obelisk/compiler";
import { asRunId } from "@obelisk/core";
import { createMemoryStore } from "@obelisk/state";
import { describe, expect, it } from "vitest";
import { runPlan, statusOf } from "./__fixtures__/run-plan.js";
import type { RunnerOptions } from "./runner-types.js";

const plan = [
  { _id: "price", _tool: "price", net: 100, _outputPath: "†state.price" },
  { _id: "pay", _tool: "pay", amount: 5, _outputPath: "†state.paid" },
];

/** Runs `plan` once, then again on the same store with `rerun`: each call's status and the tools that ran. */
async function sentAgain(rerun: RunnerOptions["rerun"]) {
  const ran: string[] = [];
  const seen: boolean[] = [];
  const registry = createToolRegistry([
    { name: "price", run: () => ran.push("price") },
    { name: "pay", idempotent: false, run: () => ran.push("pay") },
  ]);
  const store = createMemoryStore();
  await runPlan(registry, plan, { store });
  ran.length = 0;
  const { result } = await runPlan(registry, plan, {
    store,
    runId: asRunId("r2"),
    ...(rerun === undefined ? {} : { rerun }),
    confirm: ({ rerun: asked }) => {
      seen.push(asked);
      return { action: "approve" };
    },
  });
  return { status: statusOf(result), ran, seen };
}

describe("the host's rerun option (s32 user review, M1)", () => {
  it("without it, calls identical to completed ones are satisfied", async () => {
    const { status, ran } = await sentAgain(undefined);
    expect(status).toEqual({ price: ["satisfied", undefined], pay: ["satisfied", undefined] });
    expect(ran).toEqual([]);
  });

  it("true runs every call of an idempotent tool again; a tool that is not idempotent stays satisfied", async () => {
    const { status, ran, seen } = await sentAgain(true);
    expect(status).toEqual({ price: ["succeeded", undefined], pay: ["satisfied", undefined] });
    expect(ran).toEqual(["price"]);
    expect(seen).toEqual([true]);
  });

  it("a set runs the calls it names again, of any tool, and only those", async () => {
    const { status, ran, seen } = await sentAgain(new Set(["pay"]));
    expect(status).toEqual({ price: ["satisfied", undefined], pay: ["succeeded", undefined] });
    expect(ran).toEqual(["pay"]);
    expect(seen).toEqual([true]);
  });
});
