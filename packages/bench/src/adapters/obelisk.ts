import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  createEngine,
  createMemoryStore,
  type JsonObject,
  type StateStore,
  type ToolDefinition,
} from "obelisk";
import type { Dag } from "../dag.js";
import { type Adapter, type NodeTask, nodeName, type PreparedRun } from "./adapter.js";

/** Which store the Obelisk adapter uses. */
export type ObeliskStoreKind = "memory" | "sqlite";

/** The plan of a DAG: call `n<i>` reads `†state.n<j>` of each dependency and writes `†state.n<i>`. */
export function dagToPlan(dag: Dag): JsonObject[] {
  const plan: JsonObject[] = new Array(dag.size);
  for (let i = 0; i < dag.size; i++) {
    plan[i] = {
      _tool: "step",
      _id: nodeName(i),
      inputs: (dag.deps[i] ?? []).map((j) => `†state.${nodeName(j)}`),
      _outputPath: `†state.${nodeName(i)}`,
    };
  }
  return plan;
}

/** The one tool of the benchmark plans: runs the node's task (its index comes from the call id). */
export function stepTool(task: NodeTask): ToolDefinition {
  return {
    name: "step",
    description: "No-op benchmark step: a hash of its inputs",
    input: {
      type: "object",
      properties: { inputs: { type: "array", items: { type: "number" } } },
      required: ["inputs"],
    },
    run: (args, ctx) => task(Number(ctx.callId.slice(1)), (args as { inputs: number[] }).inputs),
  };
}

/** Opens a fresh store: memory, or SQLite in a new temp directory (removed on dispose). */
export async function openBenchStore(
  kind: ObeliskStoreKind,
): Promise<{ store: StateStore; cleanup: () => void }> {
  if (kind === "memory") return { store: createMemoryStore(), cleanup: () => {} };
  const dir = mkdtempSync(join(tmpdir(), "obelisk-bench-"));
  const { createSqliteStore } = await import("obelisk/sqlite");
  const store = await createSqliteStore(join(dir, "state.db"));
  return { store, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * Obelisk: the DAG becomes a plan; one run on a fresh thread, results read back from `RunResult.state`.
 * Timed: plan building, compile + validate, scheduling, reference resolution, per-call commits.
 */
export function createObeliskAdapter(kind: ObeliskStoreKind): Adapter {
  return {
    name: kind === "memory" ? "Obelisk (memory)" : "Obelisk (SQLite)",
    async prepare(dag, spec): Promise<PreparedRun> {
      const { store, cleanup } = await openBenchStore(kind);
      const engine = createEngine({
        tools: [stepTool(spec.task)],
        store,
        ...(spec.concurrency === undefined ? {} : { concurrency: spec.concurrency }),
      });
      return {
        async run() {
          const result = await engine.run(
            { type: "plan", plan: dagToPlan(dag) },
            {
              threadId: "bench",
              ...(spec.signal === undefined ? {} : { signal: spec.signal }),
            },
          );
          if (result.status !== "succeeded") {
            throw new Error(`Obelisk run ${result.status}: ${JSON.stringify(result.errors.slice(0, 3))}`);
          }
          return Array.from({ length: dag.size }, (_, i) => {
            const value = result.state[nodeName(i)];
            return typeof value === "number" ? value : Number.NaN;
          });
        },
        async dispose() {
          await engine.close();
          cleanup();
        },
      };
    },
  };
}
