import { afterEach, describe, expect, it } from "vitest";
import { storeKinds } from "./__fixtures__/stores.js";
import { createEngine, defineTool, type Engine } from "./index.js";

const give = defineTool({ name: "give", run: (args: unknown) => (args as { value?: unknown }).value });

describe.each(storeKinds())("a plan reading an evicted variable is told when and why ($name)", (kind) => {
  let engine: Engine;
  afterEach(async () => {
    await engine.close();
    kind.cleanup();
  });

  it("REF_UNRESOLVED with a REF_EVICTED hint naming the evicted variable, its time and reason", async () => {
    engine = createEngine({ tools: [give], store: kind.open() });
    await engine.run([
      { _tool: "give", value: { name: "Ada" }, _outputPath: "†state.user" },
      { _tool: "give", _id: "raw", value: 1 },
    ]);
    await engine.keepLastN("default", 0);
    const validation = await engine.validate([
      { _tool: "give", value: "†state.user.name" },
      { _tool: "give", value: "†calls.raw" },
      { _tool: "give", value: "†state.never" },
    ]);
    const unresolved = validation.diagnostics.map((d) => [d.code, d.pointer, d.hint ?? ""]);
    expect(unresolved.map(([code, pointer]) => [code, pointer])).toEqual([
      ["REF_UNRESOLVED", "/0/value"],
      ["REF_UNRESOLVED", "/1/value"],
      ["REF_UNRESOLVED", "/2/value"],
    ]);
    expect(unresolved[0]?.[2]).toMatch(
      /^REF_EVICTED: †state\.user was evicted at \S+ \(keepLastN: write it again \(a run's call or a set\)\)/,
    );
    expect(unresolved[1]?.[2]).toMatch(
      /^REF_EVICTED: †calls\.raw was evicted at \S+ \(keepLastN: send the call again to store its output anew\)/,
    );
    expect(unresolved[2]?.[2]).not.toContain("REF_EVICTED");
  });
});
