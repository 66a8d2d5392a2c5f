import { describe, expect, it } from "vitest";
import { codeOf } from "./__fixtures__/error-codes.js";
import { storeSnapshot } from "./__fixtures__/store-snapshot.js";
import { agentTools, createEngine, createMemoryStore, defineTool, ObeliskError } from "./index.js";

const give = defineTool({
  name: "give",
  input: { type: "object", properties: { value: {} }, required: ["value"] },
  run: (args: unknown) => (args as { value: unknown }).value,
});
/** `†state.a.b.c`: three segments. */
const deep = "†state.a.b.c";

/** The thrown error of `work` (an ObeliskError), or undefined when it resolves. */
async function errorOf(work: Promise<unknown>): Promise<ObeliskError | undefined> {
  try {
    await work;
    return undefined;
  } catch (error) {
    if (!ObeliskError.is(error)) throw error;
    return error;
  }
}

describe("engine.set, get, unset, summarize and get_variable hold references to the engine's maxPathDepth", () => {
  it("lowered: a deeper reference is PLAN_LIMIT (as in a plan), naming the limit, and changes nothing", async () => {
    const store = createMemoryStore();
    const engine = createEngine({ tools: [give], store, limits: { maxPathDepth: 2 } });
    // a plan reading the same path is refused with the same code
    const validation = await engine.validate([{ _tool: "give", value: deep }]);
    expect(validation.diagnostics).toEqual([expect.objectContaining({ code: "PLAN_LIMIT" })]);
    await engine.set("t", "†state.a.b", { c: 1 });
    const before = await storeSnapshot(store, ["t"]);
    const refused = await errorOf(engine.set("t", deep, 2));
    expect(refused).toMatchObject({ code: "PLAN_LIMIT", hint: expect.stringContaining("maxPathDepth") });
    expect(refused?.message).toContain("limit of 2 segments");
    expect(await codeOf(engine.get("t", deep))).toBe("PLAN_LIMIT");
    expect(await codeOf(engine.unset("t", deep))).toBe("PLAN_LIMIT");
    expect(await codeOf(engine.summarize("t", { refs: ["†state.a", deep] }))).toBe("PLAN_LIMIT");
    const [, , , getVariable] = agentTools(engine, "t");
    expect(await getVariable.execute({ reference: deep })).toMatchObject({
      ok: false,
      error: { code: "PLAN_LIMIT" },
    });
    expect(await storeSnapshot(store, ["t"])).toBe(before);
    // within the limit, as before
    expect(await engine.get("t", "†state.a.b")).toEqual({ found: true, value: { c: 1 } });
    expect(await getVariable.execute({ reference: "†state.a.b" })).toEqual({ found: true, value: { c: 1 } });
  });

  it("the default limit (32) still holds without limits, and a reference within it is read", async () => {
    const engine = createEngine({ tools: [give] });
    const path = (depth: number) => `†state${".x".repeat(depth)}`;
    await engine.set("t", path(32), 1);
    expect(await engine.get("t", path(32))).toEqual({ found: true, value: 1 });
    expect(await codeOf(engine.get("t", path(33)))).toBe("PLAN_LIMIT");
    expect(await codeOf(engine.set("t", path(33), 1))).toBe("PLAN_LIMIT");
  });

  it("raised: a reference deeper than 32 segments is written, read, listed and removed when maxPathDepth allows it", async () => {
    const engine = createEngine({ tools: [give], limits: { maxPathDepth: 40 } });
    const path = (depth: number) => `†state${".x".repeat(depth)}`;
    await engine.set("t", path(36), "deep");
    expect(await engine.get("t", path(36))).toEqual({ found: true, value: "deep" });
    const summary = await engine.summarize("t", { refs: [path(36)], format: "json" });
    expect(summary.entries.map((entry) => entry.reference)).toEqual([path(36)]);
    const [, , , getVariable] = agentTools(engine, "t");
    expect(await getVariable.execute({ reference: path(36) })).toEqual({ found: true, value: "deep" });
    expect(await engine.unset("t", path(36))).toEqual({ removed: true, variables: [path(36)] });
    expect(await codeOf(engine.get("t", path(36)))).toBe("REF_EVICTED");
    // the raised limit still holds
    expect(await codeOf(engine.set("t", path(41), 1))).toBe("PLAN_LIMIT");
  });
});
