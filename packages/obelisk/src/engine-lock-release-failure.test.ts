import { ObeliskError } from "@obelisk/core";
import { createMemoryStore, type StateStore } from "@obelisk/state";
import { afterEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { createEngine, defineTool } from "./index.js";

const echo = defineTool({ name: "echo", input: z.object({ x: z.string() }), run: ({ x }) => x });

/** A memory store whose locks fail to release, and whose `failing` method (if any) fails too. */
function failingStore(failing?: "createRun" | "finishRun"): StateStore {
  const memory = createMemoryStore();
  const replaced: Partial<Record<keyof StateStore, unknown>> = {
    lockThread: async (...args: Parameters<StateStore["lockThread"]>) => {
      const lock = await memory.lockThread(...args);
      return {
        ...lock,
        release: async () => {
          throw new ObeliskError("STORE_ERROR", "the lock row could not be deleted: database is locked");
        },
      };
    },
    ...(failing === undefined
      ? {}
      : {
          [failing]: async () => {
            throw new ObeliskError("STORE_ERROR", `${failing} failed: disk full`);
          },
        }),
  };
  return new Proxy(memory, {
    get(target, key) {
      if (Object.hasOwn(replaced, key)) return replaced[key as keyof StateStore];
      const value: unknown = Reflect.get(target, key);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("a failed lock release does not replace the run's own error (decision 0092)", () => {
  it.each([
    ["finishRun", "finishRun failed: disk full"],
    ["createRun", "createRun failed: disk full"],
  ] as const)(
    "%s fails, then the release: the run's error is thrown, the release's is a warning",
    async (step, message) => {
      const warn = vi.spyOn(process, "emitWarning").mockImplementation(() => undefined);
      const engine = createEngine({ tools: [echo], store: failingStore(step) });
      await expect(engine.run([{ _tool: "echo", x: "a" }], { threadId: "t" })).rejects.toMatchObject({
        code: "STORE_ERROR",
        message,
      });
      expect(warn.mock.calls).toEqual([
        [
          `releasing the thread's lock failed after the run failed (STORE_ERROR: ${message}): STORE_ERROR: the lock row could not be deleted: database is locked`,
          { code: "OBELISK_LOCK_RELEASE_ERROR" },
        ],
      ]);
    },
  );

  it("a plan refused under the lock: PLAN_INVALID is thrown, the release's failure is a warning", async () => {
    const warn = vi.spyOn(process, "emitWarning").mockImplementation(() => undefined);
    const engine = createEngine({ tools: [echo], store: failingStore() });
    await expect(engine.run([{ _tool: "nope" }], { threadId: "t" })).rejects.toMatchObject({
      code: "PLAN_INVALID",
    });
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0]?.[1]).toEqual({ code: "OBELISK_LOCK_RELEASE_ERROR" });
    expect(String(warn.mock.calls[0]?.[0])).toContain("(PLAN_INVALID: ");
  });

  it("a stream whose close fails, then the release: close rejects with the stream's error (review rev2, stop 39)", async () => {
    const warn = vi.spyOn(process, "emitWarning").mockImplementation(() => undefined);
    const engine = createEngine({ tools: [echo], store: failingStore("finishRun") });
    const stream = await engine.open({ threadId: "t" });
    expect((await stream.add({ _tool: "echo", x: "a" })).ok).toBe(true);
    await expect(stream.close()).rejects.toMatchObject({ message: "finishRun failed: disk full" });
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0]?.[1]).toEqual({ code: "OBELISK_LOCK_RELEASE_ERROR" });
  });

  it("a stream refused while opening: its error is thrown, the release's failure is a warning", async () => {
    const warn = vi.spyOn(process, "emitWarning").mockImplementation(() => undefined);
    const engine = createEngine({ tools: [echo], store: failingStore("createRun") });
    await expect(engine.open({ threadId: "t" })).rejects.toMatchObject({
      message: "createRun failed: disk full",
    });
    expect(warn).toHaveBeenCalledTimes(1);
  });
});
