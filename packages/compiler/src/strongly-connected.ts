/**
 * The strongly connected components of a graph given as successor lists (vertices `0 … succ.length - 1`),
 * every component, each after every component it reaches (iterative Tarjan, O(V + E)).
 */
export function stronglyConnected(succ: readonly (readonly number[])[]): number[][] {
  const n = succ.length;
  const index = new Int32Array(n).fill(-1);
  const low = new Int32Array(n);
  const onStack = new Uint8Array(n);
  const stack: number[] = [];
  const components: number[][] = [];
  let counter = 0;
  for (let root = 0; root < n; root++) {
    if (index[root] !== -1) continue;
    const work: [number, number][] = [[root, 0]];
    index[root] = low[root] = counter++;
    stack.push(root);
    onStack[root] = 1;
    while (work.length > 0) {
      const frame = work[work.length - 1] as [number, number];
      const [v, at] = frame;
      const next = (succ[v] as readonly number[])[at];
      if (next !== undefined) {
        frame[1] = at + 1;
        if (index[next] === -1) {
          index[next] = low[next] = counter++;
          stack.push(next);
          onStack[next] = 1;
          work.push([next, 0]);
        } else if (onStack[next] === 1) low[v] = Math.min(low[v] as number, index[next] as number);
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent !== undefined) low[parent[0]] = Math.min(low[parent[0]] as number, low[v] as number);
      if (low[v] !== index[v]) continue;
      const component: number[] = [];
      let member: number;
      do {
        member = stack.pop() as number;
        onStack[member] = 0;
        component.push(member);
      } while (member !== v);
      components.push(component);
    }
  }
  return components;
}
