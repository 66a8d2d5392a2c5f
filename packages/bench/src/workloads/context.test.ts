import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { runContext } from "./context.js";

const example = new URL("../../../../examples/data-analysis/", import.meta.url);

describe("context efficiency workload (issue 7: plan + summary against the data inlined into the calls)", () => {
  it("counts the plan as written plus the summary for Obelisk, and divides the inlined calls by that", async () => {
    const figures = await runContext(() => {});
    const planText = await readFile(new URL("plan.json", example), "utf8");
    const input = JSON.parse(await readFile(new URL("input.json", example), "utf8")) as { count: number };
    expect(figures.records).toBe(input.count);
    expect(figures.planChars).toBe(JSON.stringify(JSON.parse(planText)).length);
    expect(figures.summaryChars).toBeGreaterThan(0);
    expect(figures.obeliskChars).toBe(figures.planChars + figures.summaryChars);
    // inlining puts the fetched records into the calls: far more than the plan that references them
    expect(figures.inlineCallsChars).toBeGreaterThan(figures.records * 10);
    const ratio = figures.inlineCallsChars / figures.obeliskChars;
    expect(Math.abs(figures.ratio - ratio) / ratio).toBeLessThan(0.005); // rounded to 3 significant digits
    expect(figures.reactChars).toBeGreaterThan(figures.inlineCallsChars);
    expect(figures.resultsOnceChars).toBeGreaterThan(figures.planChars);
  }, 60_000);
});
