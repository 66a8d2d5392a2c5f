import { AsyncLocalStorage } from "node:async_hooks";
import { describe, expect, it } from "vitest";
import { createEngine, defineTool, type EngineOptions } from "./index.js";

/** The request each observation was made for and the async context it saw. */
interface Seen {
  readonly thread: string;
  readonly what: string;
  readonly context: string | undefined;
}

/**
 * Decision 0100: with a bounded `concurrency` (or a tool's own), a call waiting for a slot is started by
 * another call's end or the limiter's turn; its tool, hooks and events still see the context of the run
 * that dispatched it, as without a limit.
 */
describe("engine: a call runs in its own run's async context under concurrency limits", () => {
  const request = new AsyncLocalStorage<string>();

  async function runThreeRequests(limits: Pick<EngineOptions, "concurrency">, toolConcurrency?: number) {
    const seen: Seen[] = [];
    const who = defineTool({
      name: "who",
      input: { type: "object", properties: { i: { type: "number" } } },
      fresh: true,
      ...(toolConcurrency === undefined ? {} : { concurrency: toolConcurrency }),
      run: async (_args, context) => {
        seen.push({ thread: context.threadId, what: `tool ${context.callId}`, context: request.getStore() });
        await Promise.resolve();
        return request.getStore() ?? null;
      },
    });
    const engine = createEngine({
      tools: [who],
      ...limits,
      onEvent: (event) => {
        if (event.type === "call-start" || event.type === "call-end") {
          seen.push({
            thread: event.threadId,
            what: `${event.type} ${event.callId}`,
            context: request.getStore(),
          });
        }
      },
    });
    const plan = [0, 1, 2].map((i) => ({ _tool: "who", _id: `c${i}`, i, _outputPath: `†state.v${i}` }));
    const results = await Promise.all(
      ["A", "B", "C"].map((thread) =>
        request.run(`request-${thread}`, () => engine.run(plan, { threadId: thread })),
      ),
    );
    await engine.close();
    return { seen, results };
  }

  it.each([
    ["concurrency 100 (a free slot for every call)", { concurrency: 100 }, undefined],
    ["concurrency 1", { concurrency: 1 }, undefined],
    ["a tool's own concurrency 1", {}, 1],
  ])(
    "%s: tools and call events see the dispatching run's context",
    async (_label, limits, toolConcurrency) => {
      const { seen, results } = await runThreeRequests(limits, toolConcurrency);
      expect(results.map((result) => result.state)).toEqual(
        ["A", "B", "C"].map((thread) => ({
          v0: `request-${thread}`,
          v1: `request-${thread}`,
          v2: `request-${thread}`,
        })),
      );
      // 3 runs × 3 calls × (call-start, tool, call-end)
      expect(seen).toHaveLength(27);
      expect(seen.filter((entry) => entry.context !== `request-${entry.thread}`)).toEqual([]);
    },
  );
});
