/** Plan shapes for the overhead benchmark: 10,000-call chain, wide and random DAGs of no-op calls. */
export type Shape = "chain" | "wide" | "random";

/** A deterministic pseudo-random source (mulberry32). */
export function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A plan of `n` no-op calls: each reads the outputs of 0–2 earlier calls. */
export function makePlan(shape: Shape, n: number): { type: "plan"; plan: Record<string, unknown>[] } {
  const random = seeded(42);
  const plan: Record<string, unknown>[] = [];
  for (let i = 0; i < n; i++) {
    const call: Record<string, unknown> = { _tool: "noop", _id: `c${i}`, _outputPath: `†state.v${i}` };
    if (shape === "chain" && i > 0) call.a = `†state.v${i - 1}`;
    if (shape === "random" && i > 0) {
      call.a = `†state.v${Math.floor(random() * i)}`;
      if (i > 1) call.b = `†state.v${Math.floor(random() * i)}`;
    }
    plan.push(call);
  }
  return { type: "plan", plan };
}
