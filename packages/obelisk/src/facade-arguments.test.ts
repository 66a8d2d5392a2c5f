import { describe, expect, it } from "vitest";
import { codeOf } from "./__fixtures__/error-codes.js";
import { createEngine } from "./index.js";

describe("the facade refuses arguments of the wrong type with USAGE (not a TypeError)", () => {
  it("get and set with a reference that is not a string", async () => {
    const engine = createEngine({ tools: [] });
    await engine.set("t", "†state.a", 1);
    expect(await codeOf(() => engine.get("t", 42 as unknown as string))).toBe("USAGE");
    expect(await codeOf(() => engine.get("t", null as unknown as string))).toBe("USAGE");
    expect(await codeOf(() => engine.set("t", 42 as unknown as string, 1))).toBe("USAGE");
    expect(await engine.get("t", "†state")).toEqual({ found: true, value: { a: 1 } });
  });

  it("get, set and runs.list with options that are not an object (null, a number, an array)", async () => {
    const engine = createEngine({ tools: [] });
    await engine.set("t", "†state.a", 1);
    for (const options of [null, 5, ["x"]] as never[]) {
      expect(await codeOf(() => engine.get("t", "†state.a", options))).toBe("USAGE");
      expect(await codeOf(() => engine.set("t", "†state.b", 2, options))).toBe("USAGE");
      expect(await codeOf(() => engine.runs.list(options))).toBe("USAGE");
    }
    expect(await codeOf(() => engine.runs.list({ threadId: 5 } as never))).toBe("USAGE");
    // nothing was written, and well-formed options still work
    expect(await engine.get("t", "†state", {})).toEqual({ found: true, value: { a: 1 } });
    await engine.set("t", "†state.b", 2, { description: "two" });
    expect(await engine.runs.list({ threadId: "t", limit: 1 })).toEqual([]);
  });

  it("summarize with refs that is not an array of strings", async () => {
    const engine = createEngine({ tools: [] });
    await engine.set("t", "†state.a", 1);
    const refs = ["†state.a", 5] as unknown as string[];
    expect(await codeOf(() => engine.summarize("t", { refs: "†state.a" as unknown as string[] }))).toBe(
      "USAGE",
    );
    expect(await codeOf(() => engine.summarize("t", { refs }))).toBe("USAGE");
    expect(await codeOf(() => engine.summarize("t", 5 as never))).toBe("USAGE");
    expect((await engine.summarize("t", { refs: ["†state.a"] })).entries).toHaveLength(1);
  });
});
