import type { Dag } from "../dag.js";

/** The work of one node: its result from its index and its inputs (in dependency order). */
export type NodeTask = (index: number, inputs: readonly number[]) => number | Promise<number>;

/** How one run is to be executed. */
export interface RunSpec {
  /** The work of each node (synchronous no-op for overhead, a seeded sleep for makespan). */
  readonly task: NodeTask;
  /** Global concurrency limit. Default unbounded. */
  readonly concurrency?: number;
  /** Known cost of each node, for engines that take user priorities (p-graph's oracle variant). */
  readonly cost?: readonly number[];
  /** Cancels the run, for engines that support it (Obelisk): how a run over the time limit is stopped. */
  readonly signal?: AbortSignal;
}

/** A run set up and ready to go: only `run` is timed. */
export interface PreparedRun {
  /** Runs the DAG and returns every node's result, by index. */
  run(): Promise<number[]>;
  /** Releases what `prepare` opened (stores, temp files). */
  dispose(): Promise<void>;
}

/** One engine under test, behind the same interface. */
export interface Adapter {
  /** Name in tables and results.json. */
  readonly name: string;
  /** Sets up a run of `dag` (untimed: opening stores, creating the engine). */
  prepare(dag: Dag, spec: RunSpec): Promise<PreparedRun>;
}

/** A prepared run with nothing to dispose. */
export function preparedRun(run: () => Promise<number[]>): PreparedRun {
  return { run, dispose: async () => {} };
}

/** Node name used by engines that need string ids. */
export function nodeName(index: number): string {
  return `n${index}`;
}
