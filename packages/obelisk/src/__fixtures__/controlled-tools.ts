import { defineTool, type ToolDefinition } from "@obelisk/compiler";
import { type Deferred, deferred } from "./deferred.js";

/** Tools whose calls finish only when the test says so; tracks start order and in-flight counts. */
export class Controller {
  readonly started: string[] = [];
  readonly pending = new Map<string, Deferred<unknown>>();
  readonly signals = new Map<string, AbortSignal>();
  inFlight = 0;
  maxInFlight = 0;
  readonly perTool = new Map<string, { inFlight: number; max: number }>();

  /** A tool `name` whose calls take `{ key }` and wait for `finish(key)`. */
  tool(name: string, extra: Partial<ToolDefinition> = {}): ToolDefinition {
    return defineTool({
      name,
      input: { type: "object", properties: { key: { type: "string" }, value: {} }, required: ["key"] },
      ...extra,
      run: async (input: unknown, ctx) => {
        const args = input as Record<string, unknown>;
        const key = String(args.key);
        this.started.push(key);
        this.signals.set(key, ctx.signal);
        const tool = this.perTool.get(name) ?? { inFlight: 0, max: 0 };
        this.perTool.set(name, tool);
        tool.inFlight++;
        tool.max = Math.max(tool.max, tool.inFlight);
        this.inFlight++;
        this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
        const gate = deferred<unknown>();
        this.pending.set(key, gate);
        try {
          return await gate.promise;
        } finally {
          this.inFlight--;
          tool.inFlight--;
        }
      },
    });
  }

  /** Completes the call with that key. */
  finish(key: string, value: unknown = key): void {
    const gate = this.pending.get(key);
    if (gate === undefined) throw new Error(`${key} has not started`);
    gate.resolve(value);
  }

  /** Fails the call with that key. */
  fail(key: string, error: Error): void {
    this.pending.get(key)?.reject(error);
  }
}
