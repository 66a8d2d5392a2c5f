import { BasicTracerProvider, ConsoleSpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { branch, createEngine, defineTool } from "obelisk";
import { z } from "zod";
import { tracingObserver } from "./tracing-observer.js";

// A traced run printed by OpenTelemetry's console exporter: `npx tsx examples/opentelemetry/demo.ts`.
// A real service exports to a collector instead (README: "Exporting with OTLP").
const provider = new BasicTracerProvider({
  spanProcessors: [new SimpleSpanProcessor(new ConsoleSpanExporter())],
});

let outages = 1;
const tools = [
  defineTool({
    name: "fetchRates",
    description: "Exchange rates (the first attempt fails, the retry succeeds)",
    retry: { attempts: 3, backoffMs: 20 },
    run: () => {
      if (outages-- > 0) throw Object.assign(new Error("rates service unavailable"), { code: "UNAVAILABLE" });
      return { EUR: 0.92, GBP: 0.79 };
    },
  }),
  defineTool({
    name: "convert",
    description: "Converts an amount at a rate",
    input: z.object({ amount: z.number(), rate: z.number() }),
    run: ({ amount, rate }) => Math.round(amount * rate * 100) / 100,
  }),
  defineTool({
    name: "checkLimit",
    description: "Takes the `over` alternative above 100",
    outcomes: ["within", "over"],
    input: z.object({ amount: z.number() }),
    run: ({ amount }) => (amount > 100 ? branch("over", { amount }) : amount),
  }),
];

const plan = {
  type: "plan",
  plan: [
    { _tool: "fetchRates", _id: "rates", _outputPath: "†state.rates" },
    { _tool: "convert", _id: "toEur", amount: 120, rate: "†state.rates.EUR", _outputPath: "†state.eur" },
    { _tool: "convert", _id: "toGbp", amount: 120, rate: "†state.rates.GBP", _outputPath: "†state.gbp" },
    { _tool: "checkLimit", _id: "limit", amount: "†state.eur", _outputPath: "†state.ok || †state.over" },
  ],
};

const engine = createEngine({ tools, onEvent: tracingObserver(provider.getTracer("obelisk-demo")) });
const result = await engine.run(plan, { threadId: "otel-demo" });
await engine.close();
await provider.shutdown();
console.log(
  `run ${result.status}: ${Object.keys(result.calls).length} call spans under one obelisk.run span`,
);
