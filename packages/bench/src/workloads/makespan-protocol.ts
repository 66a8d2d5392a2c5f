import type { WarmUpBudget } from "../measure.js";

/** What the makespan workload asks a child (limit `null`: unbounded). */
export type ChildRequest =
  | { readonly type: "warm"; readonly limit: number | null; readonly budget: WarmUpBudget }
  | { readonly type: "run"; readonly limit: number | null };

/** What a child answers: `ready` (with its engine's name) once loaded, then one reply per `warm` or `run`. */
export type ChildReply =
  | { readonly type: "ready"; readonly name: string }
  | {
      readonly type: "warmed";
      /** Time of the last warm-up run (instant tasks: the engine's own work for one run), ms. */
      readonly runMs?: number;
      readonly error?: string;
    }
  | {
      readonly type: "ran";
      readonly ms?: number;
      readonly observedBoundMs?: number;
      readonly error?: string;
    };
