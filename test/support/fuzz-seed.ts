/** Default seed of every property test in this package (override with OBELISK_FUZZ_SEED). */
const DEFAULT_FUZZ_SEED = 20_240_601;

/** The seed of this run: `OBELISK_FUZZ_SEED` when set to an integer, else {@link DEFAULT_FUZZ_SEED}. */
export function fuzzSeed(): number {
  const raw = process.env.OBELISK_FUZZ_SEED;
  if (raw === undefined || raw.trim() === "") return DEFAULT_FUZZ_SEED;
  const value = Number(raw);
  if (!Number.isSafeInteger(value)) throw new Error(`OBELISK_FUZZ_SEED must be an integer, got "${raw}"`);
  return value;
}

/** Wraps a failing property run so the seed to reproduce it is always in the message. */
export async function withSeed<T>(label: string, run: (seed: number) => T | Promise<T>): Promise<T> {
  const seed = fuzzSeed();
  try {
    return await run(seed);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new Error(`[${label}] failed with OBELISK_FUZZ_SEED=${seed}\n${message}`, { cause: error });
  }
}

/** A small seeded PRNG (mulberry32) for choices outside fast-check (kill moments, race schedules). */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}
