import type { PlanGraph } from "./compiled-plan.js";

/** Strongly connected components with more than one node (iterative Tarjan, O(V+E)). */
function cyclicComponents(graph: PlanGraph): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const components: string[][] = [];
  let counter = 0;
  for (const root of graph.nodes()) {
    if (index.has(root)) continue;
    const work: [string, string[], number][] = [[root, graph.outNeighbors(root), 0]];
    index.set(root, counter);
    low.set(root, counter++);
    stack.push(root);
    onStack.add(root);
    while (work.length > 0) {
      const frame = work[work.length - 1] as [string, string[], number];
      const [node, neighbors, position] = frame;
      if (position < neighbors.length) {
        frame[2] = position + 1;
        const next = neighbors[position] as string;
        if (!index.has(next)) {
          index.set(next, counter);
          low.set(next, counter++);
          stack.push(next);
          onStack.add(next);
          work.push([next, graph.outNeighbors(next), 0]);
        } else if (onStack.has(next)) {
          low.set(node, Math.min(low.get(node) as number, index.get(next) as number));
        }
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent !== undefined)
        low.set(parent[0], Math.min(low.get(parent[0]) as number, low.get(node) as number));
      if (low.get(node) === index.get(node)) {
        const component: string[] = [];
        let member: string | undefined;
        do {
          member = stack.pop() as string;
          onStack.delete(member);
          component.push(member);
        } while (member !== node);
        if (component.length > 1) components.push(component);
      }
    }
  }
  return components;
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
