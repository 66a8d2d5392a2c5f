import type { StateStore } from "@obelisk/state";
import { afterEach, describe, expect, it } from "vitest";
import { snapshotStoreKinds } from "./__fixtures__/snapshot-stores.js";
import { agentTools, asThreadId, createEngine, defineTool, type Engine } from "./index.js";

const OPTIONAL: ReadonlySet<string> = new Set([
  "nextCallNumber",
  "commitNumbered",
  "removeNumbered",
  "commitCalls",
  "findCompletedCalls",
  "appendRunCalls",
]);

/** `store` without any of the optional methods of StateStore (a custom store that has none of them). */
function withoutOptional(store: StateStore): StateStore {
  return new Proxy(store, {
    get: (target, key) => {
      if (typeof key === "string" && OPTIONAL.has(key)) return undefined;
      const value = Reflect.get(target, key, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

const give = defineTool({
  name: "give",
  input: { type: "object", properties: { value: {} } },
  run: (args) => (args as { value: unknown }).value,
});

/**
 * The engine reads and edits a thread the store does not hold through the store itself (its own guards
 * were removed as duplicates of the store's, decision 0022): the answers are an empty thread's and no
 * thread is created — on both stores, with and without the optional store methods.
 */
describe.each(snapshotStoreKinds())("a thread the $name store does not hold", (kind) => {
  let engines: Engine[] = [];
  afterEach(async () => {
    for (const engine of engines) await engine.close().catch(() => undefined);
    engines = [];
  });

  for (const [name, wrap] of [
    ["with every store method", (store: StateStore) => store],
    ["without the optional store methods", withoutOptional],
  ] as const) {
    it(`reads as empty and is not created by reads or edits with nothing to do (${name})`, async () => {
      const opened = kind.open();
      const engine = createEngine({ tools: [give], store: wrap(opened.store) });
      engines.push(engine);
      await engine.set("t", "†state.kept", 1);
      const before = await opened.snapshot(["t", "fresh"]);
      expect(await engine.summarize("fresh")).toMatchObject({ entries: [], text: "No variables." });
      expect(await engine.summarize("fresh", { refs: ["†state.a"], format: "json" })).toMatchObject({
        entries: [],
        notFound: ["†state.a"],
      });
      expect(await engine.get("fresh", "†state")).toEqual({ found: true, value: {} });
      expect(await engine.get("fresh", "†state.a")).toEqual({ found: false });
      expect(await engine.get("fresh", "†calls.c1")).toEqual({ found: false });
      const validation = await engine.validate([{ _tool: "give", value: 1 }], { threadId: "fresh" });
      expect(validation.compiled?.calls.map((call) => call.id)).toEqual(["give$1"]);
      await engine.reset("fresh");
      expect(await engine.keepLastN("fresh", 0)).toEqual({ kept: 0, evicted: 0 });
      const [, , listVariables, getVariable] = agentTools(engine, "fresh");
      expect(await listVariables.execute({})).toMatchObject({ text: "No variables.", omitted: 0 });
      expect(await getVariable.execute({ reference: "†calls.c1" })).toMatchObject({ found: false });
      expect(await opened.snapshot(["t", "fresh"])).toBe(before);
      expect(await opened.store.getThread(asThreadId("fresh"))).toBeUndefined();
    });
  }
});
