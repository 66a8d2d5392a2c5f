import { describe, expect, it } from "vitest";
import { agentToolCaller } from "./__fixtures__/agent-tool-caller.js";
import { agentTools, createEngine, defineTool } from "./index.js";

const give = defineTool({
  name: "give",
  input: { type: "object", properties: { value: {} }, required: ["value"] },
  run: (args: unknown) => (args as { value: unknown }).value,
});

/** Reads every page the answers point to, from offset 0, until an answer names no next page. */
async function readAllPages(
  call: ReturnType<typeof agentToolCaller>,
  reference: string,
): Promise<{ pages: Record<string, unknown>[]; text: string; items: unknown[] }> {
  const pages: Record<string, unknown>[] = [];
  let text = "";
  const items: unknown[] = [];
  for (let offset: number | undefined = 0; offset !== undefined; ) {
    const page = await call("get_variable", { reference, offset });
    pages.push(page);
    if (typeof page.text === "string") text += page.text;
    if (Array.isArray(page.items)) items.push(...page.items);
    const next = page.next as number | undefined;
    if (next !== undefined) expect(next).toBeGreaterThan(offset);
    offset = next;
    expect(pages.length).toBeLessThan(200);
  }
  return { pages, text, items };
}

describe("get_variable pages on under a very long reference (stop 30 review)", () => {
  it("a string and an array read whole by following next, however long the reference", async () => {
    const engine = createEngine({ tools: [give] });
    const key = "k".repeat(5_000);
    const text = "y".repeat(20_000);
    const list = Array.from({ length: 300 }, (_, index) => index);
    await engine.set("t", `†state.s${key}`, text);
    await engine.set("t", `†state.a${key}`, list);
    const call = agentToolCaller(agentTools(engine, "t"));
    const strings = await readAllPages(call, `†state.s${key}`);
    expect(strings.text).toBe(text);
    const arrays = await readAllPages(call, `†state.a${key}`);
    expect(arrays.items).toEqual(list);
    // the note does not repeat a reference that long; it says how to go on
    expect(strings.pages[0]?.note).toContain('get_variable with the same reference and "offset":');
    for (const page of [...strings.pages, ...arrays.pages])
      expect(JSON.stringify(page).length).toBeLessThanOrEqual(8_000);
  });

  it("limit 0 gives the facts and no next page at the same offset", async () => {
    const engine = createEngine({ tools: [give] });
    await engine.set(
      "t",
      "†state.list",
      Array.from({ length: 500 }, (_, index) => index),
    );
    await engine.set("t", "†state.text", "x".repeat(20_000));
    const call = agentToolCaller(agentTools(engine, "t"));
    const list = await call("get_variable", { reference: "†state.list", offset: 10, limit: 0 });
    expect(list).toMatchObject({ offset: 10, limit: 0, total: 500, items: [] });
    expect(list.next).toBeUndefined();
    expect(list.note).toBe("limit 0 shows no items: the value has 500; give a limit above 0 to read them.");
    const text = await call("get_variable", { reference: "†state.text", limit: 0 });
    expect(text.next).toBeUndefined();
    expect(text.note).toContain("limit 0 shows no characters");
  });
});
