import { afterEach, describe, expect, it } from "vitest";
import { mutatingTool } from "./__fixtures__/mutating-tool.js";
import { storeKinds } from "./__fixtures__/stores.js";
import { createEngine, defineTool, type Engine } from "./index.js";

// Issue 5: "Values handed to tools are immutable". engine-outcomes.test.ts checks it on the memory store; here
// the values come from each store, including SQLite's, in a first run and in a second run that reads them back.
describe.each(storeKinds())("values handed to tools are immutable on the $name store", (kind) => {
  let engine: Engine;
  afterEach(async () => {
    await engine.close();
    kind.cleanup();
  });

  it("stored state, another call's output and values of an earlier run cannot be changed by a tool", async () => {
    const attempts: string[] = [];
    const make = defineTool({ name: "make", run: () => ({ list: [1] }) });
    engine = createEngine({ tools: [mutatingTool(attempts), make], store: kind.open() });
    await engine.set("t", "†state.stored", { n: 1 });
    const first = await engine.run(
      [
        { _tool: "make", _id: "made", _outputPath: "†state.made" },
        { _tool: "make", _id: "out" },
        { _tool: "mutate", _id: "m1", target: "†state.stored", _outputPath: "†state.m1" },
        { _tool: "mutate", _id: "m2", target: "†state.made.list", _outputPath: "†state.m2" },
        { _tool: "mutate", _id: "m3", target: "†calls.out", _outputPath: "†state.m3" },
      ],
      { threadId: "t" },
    );
    expect(first.status).toBe("succeeded");
    // a second run reads what the first stored (from the store, not from the first run's memory)
    const second = await engine.run(
      [
        { _tool: "mutate", _id: "n1", target: "†state.made", _outputPath: "†state.n1" },
        { _tool: "mutate", _id: "n2", target: "†calls.out", _outputPath: "†state.n2" },
        { _tool: "mutate", _id: "n3", target: "†state.stored", _outputPath: "†state.n3" },
      ],
      { threadId: "t" },
    );
    expect(second.status).toBe("succeeded");
    expect(attempts).toEqual(Array.from({ length: 6 }, () => "refused"));
    expect(second.state.stored).toEqual({ n: 1 });
    expect(second.state.made).toEqual({ list: [1] });
    expect(await engine.get("t", "†state.made")).toMatchObject({ found: true, value: { list: [1] } });
    expect(await engine.get("t", "†calls.out")).toMatchObject({ found: true, value: { list: [1] } });
  });
});
