/** Deterministic pseudo-random numbers (mulberry32). */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Plan shapes for benchmarks. */
export type PlanShape = "chain" | "fan-out" | "random-dag";

/** A plan of `size` calls of the `log` tool, each reading up to 3 earlier outputs (a template of references). */
export function generatePlan(shape: PlanShape, size: number, seed = 1): { type: "plan"; plan: unknown[] } {
  const next = random(seed);
  const calls: unknown[] = [];
  for (let i = 0; i < size; i++) {
    const sources: number[] = [];
    if (i > 0) {
      if (shape === "chain") sources.push(i - 1);
      else if (shape === "fan-out") sources.push(0);
      else for (let k = 0; k < 3; k++) sources.push(Math.floor(next() * i));
    }
    const message = sources.length === 0 ? "start" : sources.map((s) => `{†state.step${s}.text}`).join(" ");
    calls.push({ _tool: "log", _id: `c${i}`, message, _outputPath: `†state.step${i}.text` });
  }
  return { type: "plan", plan: calls };
}
