import { describe, expect, it } from "vitest";
import { deferred, until } from "./__fixtures__/deferred.js";
import { storeKinds } from "./__fixtures__/stores.js";
import { createEngine, defineTool, type ToolContext } from "./index.js";

/** A tool that records the keys of every attempt and answers what `answer` says. */
const keyed = (
  keys: Pick<ToolContext, "idempotencyKey" | "contentKey" | "attempt">[],
  answer: () => unknown,
) =>
  defineTool({
    name: "charge",
    input: { type: "object", properties: { amount: { type: "number" } }, required: ["amount"] },
    retry: { attempts: 2, backoffMs: 0 },
    run: (_args: unknown, ctx) => {
      keys.push({ idempotencyKey: ctx.idempotencyKey, contentKey: ctx.contentKey, attempt: ctx.attempt });
      return answer();
    },
  });
const pay = (amount: number) => [{ _tool: "charge", _id: "pay", amount, _outputPath: "†state.payment" }];

describe.each(storeKinds())("ctx.contentKey on the $name store", (kind) => {
  it("differs when a later run reuses the call id for other parameters (idempotencyKey repeats: SPEC §8)", async () => {
    const keys: Pick<ToolContext, "idempotencyKey" | "contentKey" | "attempt">[] = [];
    const engine = createEngine({ tools: [keyed(keys, () => "ok")], store: kind.open() });
    await engine.run(pay(10), { threadId: "chat" });
    await engine.run(pay(99), { threadId: "chat" });
    await engine.run(pay(10), { threadId: "other" });
    const [first, second, elsewhere] = keys;
    expect(first?.idempotencyKey).toBe("chat:pay");
    expect(second?.idempotencyKey).toBe("chat:pay");
    expect(first?.contentKey).toMatch(/^chat:pay:[0-9a-f]{16}$/);
    expect(second?.contentKey).toMatch(/^chat:pay:[0-9a-f]{16}$/);
    expect(second?.contentKey).not.toBe(first?.contentKey);
    // where the result goes is not part of it: the same charge written elsewhere keeps its key
    await engine.run([{ ...pay(10)[0], _outputPath: "†state.receipt" }], { threadId: "chat" });
    expect(keys[3]?.contentKey).toBe(first?.contentKey);
    // the thread is part of it, as in idempotencyKey
    expect(elsewhere?.contentKey.slice("other:pay:".length)).toBe(
      first?.contentKey.slice("chat:pay:".length),
    );
    await engine.close();
    kind.cleanup();
  });

  it("stays the same across the retries of a call and its resume after an interruption", async () => {
    const keys: Pick<ToolContext, "idempotencyKey" | "contentKey" | "attempt">[] = [];
    const held = deferred<unknown>();
    let calls = 0;
    const engine = createEngine({
      tools: [
        keyed(keys, () => {
          calls++;
          if (calls === 1) throw new Error("provider 503");
          return calls === 2 ? held.promise : "charged";
        }),
      ],
      store: kind.open(),
      // the retry's wait passes at once (no real time)
      timers: { setTimeout: (callback) => queueMicrotask(callback), clearTimeout: () => {} },
    });
    const abort = new AbortController();
    const running = engine.run(pay(10), { threadId: "chat", signal: abort.signal });
    await until(() => keys.length === 2);
    abort.abort();
    const interrupted = await running;
    expect(interrupted.status).toBe("cancelled");

    const resumed = await engine.resume(interrupted.runId);
    expect(resumed.calls.pay?.status).toBe("succeeded");
    expect(keys.map((key) => key.attempt)).toEqual([1, 2, 1]);
    expect(keys[0]?.contentKey).toMatch(/^chat:pay:[0-9a-f]{16}$/);
    expect(new Set(keys.map((key) => key.contentKey)).size).toBe(1);
    await engine.close();
    kind.cleanup();
  });
});
