/** Summary statistics of a list of numbers, grouped totals included. */
export interface Statistics {
  readonly count: number;
  readonly total: number;
  readonly mean: number;
  readonly median: number;
  readonly min: number;
  readonly max: number;
  readonly stddev: number;
  readonly byRegion: Record<string, { count: number; total: number }>;
  readonly topProduct: string;
}

const round = (value: number): number => Math.round(value * 100) / 100;

/** Computes statistics of records' amounts. */
export function computeStatistics(
  records: readonly { amount: number; region: string; product: string }[],
): Statistics {
  const amounts = records.map((r) => r.amount).sort((a, b) => a - b);
  const count = amounts.length;
  const total = amounts.reduce((sum, a) => sum + a, 0);
  const mean = count === 0 ? 0 : total / count;
  const middle = Math.floor(count / 2);
  const median =
    count === 0 ? 0 : count % 2 ? amounts[middle]! : (amounts[middle - 1]! + amounts[middle]!) / 2;
  const variance = count === 0 ? 0 : amounts.reduce((sum, a) => sum + (a - mean) ** 2, 0) / count;
  const byRegion: Record<string, { count: number; total: number }> = {};
  const byProduct = new Map<string, number>();
  for (const r of records) {
    const group = byRegion[r.region] ?? { count: 0, total: 0 };
    byRegion[r.region] = group;
    group.count++;
    group.total = round(group.total + r.amount);
    byProduct.set(r.product, (byProduct.get(r.product) ?? 0) + r.amount);
  }
  const topProduct = [...byProduct].sort((a, b) => b[1] - a[1])[0]?.[0] ?? "none";
  return {
    count,
    total: round(total),
    mean: round(mean),
    median: round(median),
    min: amounts[0] ?? 0,
    max: amounts[count - 1] ?? 0,
    stddev: round(Math.sqrt(variance)),
    byRegion,
    topProduct,
  };
}
