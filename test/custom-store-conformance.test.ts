import { describeStoreConformance } from "@obelisk/state/conformance";
import { createEngine, createMemoryStore, type StateStore } from "obelisk";
import { describe, expect, it } from "vitest";

// A backend written outside @obelisk/state runs the conformance suite through its published entry
// (`@obelisk/state/conformance`, built dist), as the author of a Postgres or Redis store would. Here the
// backend hands every call to a memory store, so every case must pass.
function delegatingStore(inner: StateStore, without: readonly string[] = []): StateStore {
  return new Proxy(inner, {
    get(target, key) {
      if (without.includes(String(key))) return undefined;
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

describeStoreConformance("a backend outside the package", (options) =>
  delegatingStore(createMemoryStore(options)),
);

// A backend written before `listWaitingRuns` (decision 0036): the engine refuses `waiting` instead of
// answering every run its `listRuns` gives.
describe("a backend without the optional listWaitingRuns", () => {
  it("runs.list({ waiting: true }) is USAGE naming the method; runs.list still lists", async () => {
    const engine = createEngine({
      tools: [{ name: "echo", run: (args) => args }],
      store: delegatingStore(createMemoryStore(), ["listWaitingRuns"]),
    });
    try {
      await engine.run([{ _tool: "echo", v: "†state.approvals.go" }]);
      await expect(engine.runs.list({ waiting: true })).rejects.toMatchObject({
        code: "USAGE",
        message: expect.stringContaining("listWaitingRuns()"),
      });
      expect(await engine.runs.list()).toHaveLength(1);
    } finally {
      await engine.close();
    }
  });
});
