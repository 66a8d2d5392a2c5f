import { afterEach, describe, expect, it } from "vitest";
import { onStall, unlessStalled } from "./on-stall.js";

const listenersBefore = process.listenerCount("beforeExit");

/** What Node does when the event loop empties: calls the `beforeExit` listeners (here only the CLI's own). */
function emptyEventLoop(): void {
  const listeners = process.listeners("beforeExit").slice(listenersBefore);
  for (const listener of listeners) listener(0);
}

describe("onStall", () => {
  afterEach(() => {
    expect(process.listenerCount("beforeExit")).toBe(listenersBefore);
  });

  it("tells the innermost wait first, each once; the next empty loop tells the one around it", () => {
    const told: string[] = [];
    const outer = onStall(() => told.push("outer"));
    const inner = onStall(() => told.push("inner"));
    expect(process.listenerCount("beforeExit")).toBe(listenersBefore + 1);
    emptyEventLoop();
    expect(told).toEqual(["inner"]);
    emptyEventLoop();
    expect(told).toEqual(["inner", "outer"]);
    emptyEventLoop();
    expect(told).toEqual(["inner", "outer"]);
    inner();
    outer();
  });

  it("forgets a wait that ended, and stops listening when none is left", () => {
    const told: string[] = [];
    const outer = onStall(() => told.push("outer"));
    const ended = onStall(() => told.push("ended"));
    ended();
    ended();
    emptyEventLoop();
    expect(told).toEqual(["outer"]);
    outer();
  });

  it("unlessStalled rejects with the given error when the loop empties first, and settles as the promise otherwise", async () => {
    const stalled = unlessStalled(new Promise<never>(() => {}), () => new Error("never settles"));
    emptyEventLoop();
    await expect(stalled).rejects.toThrow("never settles");
    await expect(unlessStalled(Promise.resolve(7), () => new Error("unused"))).resolves.toBe(7);
  });
});
