import type { Tracer } from "@opentelemetry/api";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from "@opentelemetry/sdk-trace-base";

/** A tracer and the spans it finished. */
export interface InMemoryTracing {
  readonly tracer: Tracer;
  /** The finished spans, in the order they ended. */
  spans(): ReadableSpan[];
}

/** A tracer whose spans stay in memory, for tests of your own tracing: no collector, no network. */
export function inMemoryTracing(): InMemoryTracing {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  return { tracer: provider.getTracer("obelisk-example"), spans: () => exporter.getFinishedSpans() };
}
