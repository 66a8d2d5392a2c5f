import type { PlanGraph } from "./compiled-plan.js";
import { stronglyConnected } from "./strongly-connected.js";

/** Strongly connected components with more than one node (iterative Tarjan, O(V+E)). */
function cyclicComponents(graph: PlanGraph): string[][] {
  const nodes = graph.nodes();
  const position = new Map(nodes.map((node, at) => [node, at]));
  const succ = nodes.map((node) => graph.outNeighbors(node).map((next) => position.get(next) as number));
  return stronglyConnected(succ)
    .filter((component) => component.length > 1)
    .map((component) => component.map((at) => nodes[at] as string));
}

/** The shortest path `start → … → start` inside `members` (BFS). */
export function cyclePathFrom(
  graph: PlanGraph,
  start: string,
  members: ReadonlySet<string> | undefined,
): string[] {
  const previous = new Map<string, string>();
  const queue = [start];
  for (let head = 0; head < queue.length; head++) {
    const node = queue[head] as string;
    for (const next of graph.outNeighbors(node)) {
      if (members !== undefined && !members.has(next)) continue;
      if (next === start) {
        const path = [start];
        for (let at: string | undefined = node; at !== undefined && at !== start; at = previous.get(at))
          path.push(at);
        path.push(start);
        return [start, ...path.slice(1, -1).reverse(), start];
      }
      if (!previous.has(next)) {
        previous.set(next, node);
        queue.push(next);
      }
    }
  }
  return [start, start];
}

/**
 * Every cycle of the plan graph, one per strongly connected component: the path of calls in edge order
 * (writer → reader, join nodes left out), starting and ending at the component's first call in plan order.
 * The graph's edges
 * are references only: a cycle that needs the plan-order commit of co-writers (decision 0019), which
 * `compile` reports as CYCLE, is not found here.
 */
export function findCycles(graph: PlanGraph): string[][] {
  const indexOf = (id: string) => {
    const node = graph.getNodeAttributes(id);
    return node.kind === "join" ? Number.POSITIVE_INFINITY : node.index;
  };
  return cyclicComponents(graph).map((component) => {
    // a cycle through a join passes through its writers and readers: a call always starts it
    const start = component.reduce((best, id) => (indexOf(id) < indexOf(best) ? id : best));
    const path = cyclePathFrom(graph, start, new Set(component));
    return path.filter((id) => indexOf(id) !== Number.POSITIVE_INFINITY);
  });
}
