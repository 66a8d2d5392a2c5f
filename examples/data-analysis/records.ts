/** One generated sales record. */
export interface SaleRecord {
  readonly id: number;
  readonly region: string;
  readonly product: string;
  readonly amount: number;
  readonly quantity: number;
  readonly day: string;
}

const REGIONS = ["north", "south", "east", "west"] as const;
const PRODUCTS = ["anvil", "rocket", "magnet", "spring", "glue", "umbrella"] as const;

/** A small seeded PRNG (mulberry32): the same seed always gives the same records. */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Generates `count` deterministic sales records from `seed`. */
export function generateRecords(count: number, seed: number): SaleRecord[] {
  const random = mulberry32(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const start = Date.UTC(2024, 0, 1);
  return Array.from({ length: count }, (_, i) => ({
    id: i + 1,
    region: pick(REGIONS),
    product: pick(PRODUCTS),
    amount: Math.round((5 + random() ** 2 * 495) * 100) / 100,
    quantity: 1 + Math.floor(random() * 9),
    day: new Date(start + Math.floor(random() * 366) * 86_400_000).toISOString().slice(0, 10),
  }));
}
