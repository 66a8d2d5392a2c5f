import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { createEngine, type ToolDefinition } from "obelisk";
import { round } from "../stats.js";
import { inlineReferences } from "./inline-references.js";

/** Characters an LLM sees for the data-analysis example, with Obelisk and with inlined data. */
export interface ContextFigures {
  /** Where the plan, input and tools came from. */
  readonly source: string;
  /** Records fetched by the plan. */
  readonly records: number;
  /** The plan as the LLM writes it (compact JSON). */
  readonly planChars: number;
  /** The variables summary the LLM reads afterwards (markdown, default budget). */
  readonly summaryChars: number;
  /** planChars + summaryChars. */
  readonly obeliskChars: number;
  /** The same calls with every reference replaced by its value (compact JSON). */
  readonly inlineCallsChars: number;
  /** ReAct: the inlined calls plus every tool result returned into the conversation. */
  readonly reactChars: number;
  /**
   * LLMCompiler-style: the plan with placeholders (the executor fills them, the model never writes the
   * data) plus every tool result once, as the joiner reads it: the fairest baseline without summaries.
   */
  readonly resultsOnceChars: number;
  /** inlineCallsChars / obeliskChars (the headline figure). */
  readonly ratio: number;
  /** reactChars / obeliskChars. */
  readonly reactRatio: number;
  /** resultsOnceChars / obeliskChars. */
  readonly resultsOnceRatio: number;
}

const EXAMPLE = new URL("../../../../examples/data-analysis/", import.meta.url);

interface PlanDocument {
  readonly plan: readonly (Record<string, unknown> & { readonly _outputPath?: string })[];
}

/** Workload 4: runs examples/data-analysis with Obelisk and counts the characters of both approaches. */
export async function runContext(log: (line: string) => void): Promise<ContextFigures> {
  const planText = await readFile(new URL("plan.json", EXAMPLE), "utf8");
  const input = JSON.parse(await readFile(new URL("input.json", EXAMPLE), "utf8")) as Record<string, unknown>;
  const toolsPath = fileURLToPath(new URL("tools.ts", EXAMPLE));
  const tools = ((await import(toolsPath)) as { default: ToolDefinition[] }).default;
  const plan = JSON.parse(planText) as PlanDocument;
  const engine = createEngine({ tools });
  try {
    const result = await engine.run(plan, { threadId: "context", input: input as never });
    if (result.status !== "succeeded") throw new Error(`data-analysis run ${result.status}`);
    const summary = await engine.summarize("context", { format: "markdown" });
    const context = { input, state: result.state };
    const planChars = JSON.stringify(plan).length;
    const inlineCalls = plan.plan.map((call) => JSON.stringify(inlineReferences(call, context)).length);
    const outputs = plan.plan.map(
      (call) => JSON.stringify(inlineReferences(call._outputPath ?? null, context)).length,
    );
    const inlineCallsChars = inlineCalls.reduce((a, b) => a + b, 0);
    const resultChars = outputs.reduce((a, b) => a + b, 0);
    const reactChars = inlineCallsChars + resultChars;
    const resultsOnceChars = planChars + resultChars;
    const obeliskChars = planChars + summary.text.length;
    const figures: ContextFigures = {
      source: "examples/data-analysis (plan.json, input.json, tools.ts)",
      records: Number(input.count ?? Number.NaN),
      planChars,
      summaryChars: summary.text.length,
      obeliskChars,
      inlineCallsChars,
      reactChars,
      ratio: round(inlineCallsChars / obeliskChars),
      reactRatio: round(reactChars / obeliskChars),
      resultsOnceChars,
      resultsOnceRatio: round(resultsOnceChars / obeliskChars),
    };
    log(
      `context: obelisk ${obeliskChars} chars, inline ${inlineCallsChars}, ReAct ${reactChars}, results once ${resultsOnceChars}: ×${figures.ratio} (results once ×${figures.resultsOnceRatio})`,
    );
    return figures;
  } finally {
    await engine.close();
  }
}
