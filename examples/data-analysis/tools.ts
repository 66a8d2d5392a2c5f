import { defineTool } from "obelisk";
import { z } from "zod";
import { generateRecords } from "./records.js";
import { computeStatistics } from "./statistics.js";

const record = z.object({
  id: z.number(),
  region: z.string(),
  product: z.string(),
  amount: z.number(),
  quantity: z.number(),
  day: z.string(),
});

const statistics = z.object({
  count: z.number(),
  total: z.number(),
  mean: z.number(),
  median: z.number(),
  min: z.number(),
  max: z.number(),
  stddev: z.number(),
  byRegion: z.record(z.string(), z.object({ count: z.number(), total: z.number() })),
  topProduct: z.string(),
});

/** Tools of the data-analysis showcase: fetch → filter → statistics → report. Deterministic (seeded). */
export default [
  defineTool({
    name: "fetchRecords",
    description: "Fetches sales records (generated from a seed, so every run sees the same data)",
    input: z.object({ count: z.number().int().min(1).max(100_000), seed: z.number().int() }),
    output: z.array(record),
    run: ({ count, seed }) => generateRecords(count, seed),
  }),
  defineTool({
    name: "filterRecords",
    description: "Keeps the records whose amount is at least minAmount",
    input: z.object({ records: z.array(record), minAmount: z.number() }),
    output: z.array(record),
    run: ({ records, minAmount }) => records.filter((r) => r.amount >= minAmount),
  }),
  defineTool({
    name: "computeStatistics",
    description: "Count, total, mean, median, min, max, standard deviation and totals by region",
    input: z.object({ records: z.array(record) }),
    output: statistics,
    run: ({ records }) => computeStatistics(records),
  }),
  defineTool({
    name: "writeReport",
    description: "Writes a short Markdown report comparing all sales with the large ones",
    input: z.object({ title: z.string(), all: statistics, large: statistics }),
    output: z.string(),
    run: ({ title, all, large }) =>
      [
        `# ${title}`,
        "",
        `${all.count} sales worth ${all.total.toFixed(2)} in total (mean ${all.mean}, median ${all.median}).`,
        `${large.count} of them (${((large.count / Math.max(1, all.count)) * 100).toFixed(1)}%) are large;`,
        `they bring ${((large.total / Math.max(1, all.total)) * 100).toFixed(1)}% of the revenue.`,
        `Best-selling product among large sales: ${large.topProduct}.`,
        "",
        "| region | sales | large sales |",
        "|---|---|---|",
        ...Object.keys(all.byRegion)
          .sort()
          .map(
            (region) =>
              `| ${region} | ${all.byRegion[region]?.count ?? 0} | ${large.byRegion[region]?.count ?? 0} |`,
          ),
      ].join("\n"),
  }),
];
