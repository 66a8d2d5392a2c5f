import { describe, expect, it } from "vitest";
import { thrownError } from "./__fixtures__/error-codes.js";
import { storeKinds } from "./__fixtures__/stores.js";
import { createEngine, defineTool } from "./index.js";

/** A search tool that answers its nth result; `reuseForMs` as given. */
const searchTool = (reuseForMs: number | undefined, runs: { count: number }) =>
  defineTool({
    name: "search",
    input: { type: "object", properties: { q: { type: "string" } }, required: ["q"] },
    ...(reuseForMs === undefined ? {} : { reuseForMs }),
    run: () => `result ${++runs.count}`,
  });
const plan = [{ _tool: "search", _id: "s", q: "prices", _outputPath: "†state.prices" }];

describe.each(storeKinds())("a tool's reuseForMs on the $name store", (kind) => {
  it("a completed call satisfies an identical one while it is younger than reuseForMs, and runs again after", async () => {
    let now = Date.parse("2026-11-26T10:00:00Z");
    const runs = { count: 0 };
    const engine = createEngine({ tools: [searchTool(60_000, runs)], store: kind.open(), now: () => now });
    expect((await engine.run(plan, { threadId: "t" })).calls.s?.status).toBe("succeeded");
    now += 59_999;
    const young = await engine.run(plan, { threadId: "t" });
    expect(young.calls.s?.status).toBe("satisfied");
    expect(runs.count).toBe(1);
    now += 1;
    const old = await engine.run(plan, { threadId: "t" });
    expect(old.calls.s?.status).toBe("succeeded");
    expect(old.state.prices).toBe("result 2");
    // the new record is young again
    expect((await engine.run(plan, { threadId: "t" })).calls.s?.status).toBe("satisfied");
    expect(runs.count).toBe(2);
    // the clock set back below the record's end: its age is unknown, it is not reused
    now -= 10_000;
    expect((await engine.run(plan, { threadId: "t" })).calls.s?.status).toBe("succeeded");
    expect(runs.count).toBe(3);
    await engine.close();
    kind.cleanup();
  });

  it("0 never reuses (as fresh); without it a completed call is reused however old", async () => {
    let now = Date.parse("2026-11-26T10:00:00Z");
    const never = { count: 0 };
    const engine = createEngine({ tools: [searchTool(0, never)], store: kind.open(), now: () => now });
    await engine.run(plan, { threadId: "t" });
    expect((await engine.run(plan, { threadId: "t" })).calls.s?.status).toBe("succeeded");
    expect(never.count).toBe(2);
    // the clock set back: a record that ended "later" is never young
    now -= 5_000;
    expect((await engine.run(plan, { threadId: "t" })).calls.s?.status).toBe("succeeded");
    expect(never.count).toBe(3);
    await engine.close();
    const always = { count: 0 };
    const forever = createEngine({ tools: [searchTool(undefined, always)], now: () => now });
    await forever.run(plan, { threadId: "t" });
    now += 365 * 24 * 3_600_000;
    expect((await forever.run(plan, { threadId: "t" })).calls.s?.status).toBe("satisfied");
    expect(always.count).toBe(1);
    await forever.close();
    kind.cleanup();
  });
});

describe("reuseForMs is checked when the tool is registered", () => {
  it.each([-1, Number.NaN, "60000", null])("%s is USAGE naming the tool", (reuseForMs) => {
    const error = thrownError(() =>
      createEngine({
        tools: [{ name: "search", run: () => 1, reuseForMs } as never],
      }),
    );
    expect(error).toMatchObject({
      code: "USAGE",
      message: 'tool "search": reuseForMs must be a number of ms from 0 (Infinity: always)',
    });
  });
});
