import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createSqliteStore } from "@obelisk/state/sqlite";
import { afterEach, describe, expect, it } from "vitest";
import { type Deferred, deferred, until } from "./__fixtures__/deferred.js";
import { createEngine, defineTool, type Engine, type JsonValue } from "./index.js";

/** The value every implementation of `step` returns for the same arguments. */
const output = (args: Record<string, unknown>): JsonValue => ({
  key: String(args.key),
  saw: (args.value ?? null) as JsonValue,
});

/** A `step` tool whose calls finish when the test says so. */
function controlledStep() {
  const pending = new Map<string, { gate: Deferred<JsonValue>; args: Record<string, unknown> }>();
  const tool = defineTool({
    name: "step",
    run: (input: unknown) => {
      const args = input as Record<string, unknown>;
      const gate = deferred<JsonValue>();
      pending.set(String(args.key), { gate, args });
      return gate.promise;
    },
  });
  const finish = (key: string): void => {
    const entry = pending.get(key);
    if (entry === undefined) throw new Error(`${key} has not started`);
    entry.gate.resolve(output(entry.args));
  };
  return { tool, pending, finish };
}

/** A synchronous `step` tool with the same results, recording which keys ran. */
function syncStep(invoked: string[]) {
  return defineTool({
    name: "step",
    run: (input: unknown) => {
      const args = input as Record<string, unknown>;
      invoked.push(String(args.key));
      return output(args);
    },
  });
}

const step = (key: string, extra: Record<string, unknown> = {}) => ({
  _tool: "step",
  _id: key,
  key,
  ...extra,
});

/** n = 6: a chain, two accumulating writers of one list (b after a), a stored call output, a join. */
const plan = [
  step("a", { _outputPath: "†state.a" }),
  step("b", { value: "†state.a", _outputPath: "†state.items", _outputMethod: "push" }),
  step("c", { _outputPath: "†state.items", _outputMethod: "push" }),
  step("d"),
  step("e", { value: "†calls.d", _outputPath: "†state.e" }),
  step("f", { value: "†state.items && †state.e", _outputPath: "†state.f" }),
];
const ids = plan.map((call) => call._id);
/** The order the test lets calls finish (each has started by then). */
const finishOrder = ["a", "c", "d", "b", "e", "f"];

describe("durability: interrupted after k of n calls, resumed in a new engine on the SQLite file", () => {
  let dir: string | undefined;
  afterEach(() => {
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
    dir = undefined;
  });

  async function uninterrupted() {
    const engine = createEngine({ tools: [syncStep([])] });
    const result = await engine.run(plan, { threadId: "t" });
    const outputs = await engine.get("t", "†calls.d");
    await engine.close();
    return { state: result.state, outputs };
  }

  it.each(finishOrder.map((_, k) => k))(
    "k = %i: resume runs only the unfinished calls and reaches the uninterrupted state",
    async (k) => {
      dir = mkdtempSync(join(tmpdir(), "obelisk-durability-"));
      const file = join(dir, "state.db");
      const control = controlledStep();
      const committed = new Set<string>();
      const first: Engine = createEngine({
        tools: [control.tool],
        store: createSqliteStore(file),
        onEvent: (event) => {
          if (event.type === "call-end" && event.status === "succeeded") committed.add(event.callId);
        },
      });
      const abort = new AbortController();
      const running = first.run(plan, { threadId: "t", signal: abort.signal });
      for (const key of finishOrder.slice(0, k)) {
        await until(() => control.pending.has(key));
        control.finish(key);
        // Wait for the commit, except for a writer held behind an earlier writer of its list.
        await until(() => committed.has(key) || (key === "c" && !committed.has("b")));
      }
      abort.abort();
      const interrupted = await running;
      expect(interrupted.status).toBe("cancelled");
      await first.close();

      const invoked: string[] = [];
      const second = createEngine({ tools: [syncStep(invoked)], store: createSqliteStore(file) });
      const resumed = await second.resume(interrupted.runId);
      expect(resumed.status).toBe("succeeded");
      expect(invoked.sort()).toEqual(ids.filter((id) => !committed.has(id)).sort());
      for (const id of committed) expect(resumed.calls[id]?.status).toBe("satisfied");
      const reference = await uninterrupted();
      expect(resumed.state).toEqual(reference.state);
      expect(await second.get("t", "†calls.d")).toEqual(reference.outputs);
      await second.close();
    },
  );
});
