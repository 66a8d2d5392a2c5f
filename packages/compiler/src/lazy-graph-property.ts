import type { PlanGraph } from "./compiled-plan.js";

/** Where a result's `graph` getter finds the function that builds the graph (not enumerable). */
const GRAPH_OF = Symbol("graphOf");

interface GraphHolder {
  readonly [GRAPH_OF]: () => PlanGraph;
}

/** The one `graph` getter every result shares: it reads the result's own builder function. */
function readGraph(this: GraphHolder): PlanGraph {
  return this[GRAPH_OF]();
}

/**
 * Gives `target` an enumerable `graph` getter that calls `graphOf`. The getter is one module-level
 * function, not a closure per result: V8 keeps an accessor's getter in an old-generation object, so a
 * fresh closure there (a `get graph() {…}` literal) is a pointer from old to young memory that keeps the
 * whole compile it closes over alive through every scavenge until the next full collection, even after
 * the result is dropped (a 200-call validate left ~40 % of what it allocated behind; docs/performance/
 * compiler.md, stop 35). The builder function sits in a non-enumerable data property, which a spread or
 * JSON leaves out as before.
 */
export function defineLazyGraph<T extends object>(
  target: T,
  graphOf: () => PlanGraph,
): T & { readonly graph: PlanGraph } {
  Object.defineProperty(target, GRAPH_OF, { value: graphOf });
  Object.defineProperty(target, "graph", { get: readGraph, enumerable: true, configurable: true });
  return target as T & { readonly graph: PlanGraph };
}
