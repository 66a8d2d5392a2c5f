import { context, type Tracer } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
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

/**
 * Registers an AsyncLocalStorage context manager, as a Node SDK's `provider.register()` does, so that the
 * active span follows `await`s (OpenTelemetry keeps the first one registered in a process).
 */
export function registerContextManager(): void {
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
}
