import { afterEach, describe, expect, it, vi } from "vitest";
import { storeKinds } from "./__fixtures__/stores.js";
import { createEngine, defineTool, type Engine } from "./index.js";

/** `give` returns its `value`; `read` returns the length of what it was given; both count their runs. */
function tools(counts: Record<string, number>) {
  const count = (name: string) => {
    counts[name] = (counts[name] ?? 0) + 1;
  };
  return [
    defineTool({
      name: "give",
      run: (args: unknown) => {
        count("give");
        return (args as { value?: unknown }).value;
      },
    }),
    defineTool({
      name: "read",
      run: (args: unknown) => {
        count("read");
        return JSON.stringify((args as { value?: unknown }).value).length;
      },
    }),
  ];
}

/** Counts the characters JSON.stringify writes (canonical JSON writes every value through it) until stopped. */
function stringified(): { stop(): number } {
  let chars = 0;
  const original = JSON.stringify;
  const spy = vi.spyOn(JSON, "stringify").mockImplementation((...args: Parameters<typeof JSON.stringify>) => {
    const text = original(...args);
    chars += typeof text === "string" ? text.length : 0;
    return text;
  });
  return {
    stop: () => {
      spy.mockRestore();
      return chars;
    },
  };
}

// decision 0112: long strings and large objects enter the satisfied key by digest, as large arrays do
describe.each(storeKinds())("large values read by reference on the $name store", (kind) => {
  let engine: Engine | undefined;
  afterEach(async () => {
    await engine?.close();
    engine = undefined;
    kind.cleanup();
  });

  it("calls reading a 100,000-character text or a large document are satisfied when the plan is sent again", async () => {
    const counts: Record<string, number> = {};
    engine = createEngine({ tools: tools(counts), store: kind.open() });
    const text = `start ${"t".repeat(100_000)} end`;
    const doc = Object.fromEntries(
      Array.from({ length: 50 }, (_, k) => [`k${k}`, { text: "d".repeat(2_000), k }]),
    );
    const plan = [
      { _tool: "give", _id: "text", value: text, _outputPath: "†state.text" },
      { _tool: "give", _id: "doc", value: doc, _outputPath: "†state.doc" },
      ...[0, 1, 2].map((i) => ({
        _tool: "read",
        _id: `t${i}`,
        value: "†state.text",
        i,
        _outputPath: `†state.t${i}`,
      })),
      ...[0, 1, 2].map((i) => ({
        _tool: "read",
        _id: `d${i}`,
        value: "†state.doc",
        i,
        _outputPath: `†state.d${i}`,
      })),
      {
        _tool: "read",
        _id: "both",
        value: { text: "†state.text", doc: "†state.doc" },
        _outputPath: "†state.both",
      },
    ];
    const first = await engine.run(plan);
    expect(first.status).toBe("succeeded");
    expect(counts).toEqual({ give: 2, read: 7 });
    if (kind.name === "sqlite") {
      // a new engine on the same file: the values are read back from disk, as new strings and objects
      await engine.close();
      engine = createEngine({ tools: tools(counts), store: kind.open() });
    }
    const written = stringified();
    const again = await engine.run(plan);
    const chars = written.stop();
    expect(Object.values(again.calls).map((call) => call?.status)).toEqual(plan.map(() => "satisfied"));
    expect(counts).toEqual({ give: 2, read: 7 });
    // the 8 reading calls no longer write the values out for their keys: measured 1.47× (memory) and 4.9×
    // (SQLite: the plan, its hash, the first digests after the reopen) the values' JSON; 5.9× and 8.8× before
    const size = JSON.stringify(text).length + JSON.stringify(doc).length;
    expect(chars).toBeLessThan((kind.name === "memory" ? 3 : 7) * size);
    // another text: its readers run again, the document's readers stay satisfied
    const changed = await engine.run([{ ...plan[0], value: `${text}!` }, ...plan.slice(1)]);
    const ran = Object.entries(changed.calls)
      .filter(([, call]) => call?.status === "succeeded")
      .map(([id]) => id);
    expect(ran).toEqual(["text", "t0", "t1", "t2", "both"]);
  });
});
