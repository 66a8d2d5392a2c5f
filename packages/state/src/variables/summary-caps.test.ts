import { describe, expect, it } from "vitest";
import { commitOk, THREAD, write } from "../conformance/commit-fixtures.js";
import { createMemoryStore } from "../memory-store.js";
import { summarize } from "./summarize.js";
import { ENTRY_CAPS } from "./summary-renderers.js";

describe("summarize: one large entry never hides the others (review 7 M1)", () => {
  it("a 5,000-character description is shortened, and every older variable is still shown", async () => {
    const store = createMemoryStore();
    for (let index = 0; index < 5; index++)
      await commitOk(store, { callId: `v${index}`, writes: [write([`v${index}`], index)] });
    await commitOk(store, { callId: "long", description: "D".repeat(5000), writes: [write(["long"], 1)] });
    await commitOk(store, { callId: "after", writes: [write(["after"], 1)] });
    for (const format of ["markdown", "json"] as const) {
      const summary = await summarize(store, THREAD, { format });
      expect(summary.omitted).toBe(0);
      expect(summary.entries.map((entry) => entry.reference)).toEqual([
        "†state.after",
        "†state.long",
        "†state.v4",
        "†state.v3",
        "†state.v2",
        "†state.v1",
        "†state.v0",
      ]);
      const long = summary.entries[1]?.description ?? "";
      expect(long.length).toBe(ENTRY_CAPS.description);
      expect(long.endsWith("…")).toBe(true);
    }
  });

  it("a 5,000-character reference is shown shortened (start … end) and the entries keep it whole", async () => {
    const store = createMemoryStore();
    const key = `${"q".repeat(5000)}_end`;
    await commitOk(store, { callId: "a", writes: [write(["small"], 1)] });
    await commitOk(store, { callId: "b", writes: [write([key], 1)] });
    const summary = await summarize(store, THREAD);
    expect(summary.omitted).toBe(0);
    expect(summary.text).toContain("### †state.small");
    const heading = summary.text.split("\n")[0] ?? "";
    expect(heading.length).toBeLessThanOrEqual(4 + ENTRY_CAPS.reference);
    expect(heading).toMatch(/^### †state\.q+…q*_end$/);
    expect(summary.entries[0]?.reference).toBe(`†state.${key}`);
    const json = await summarize(store, THREAD, { format: "json" });
    expect(json.omitted).toBe(0);
    expect(JSON.parse(json.text)[0].reference.length).toBe(ENTRY_CAPS.reference);
  });

  it("a shortened reference says where to find it whole: the keys of the nearest short enough parent", async () => {
    const store = createMemoryStore();
    const url = `https://example.com/${"p".repeat(300)}`;
    await commitOk(store, { callId: "page", writes: [write(["pages", url], "<html>")] });
    const summary = await summarize(store, THREAD);
    expect(summary.text).toContain(
      `- shortened: the reference has ${summary.entries[0]?.reference.length} characters, too many to show: read the keys of †state.pages with get_variable to find it`,
    );
    const json = await summarize(store, THREAD, { format: "json" });
    expect(JSON.parse(json.text)[0].shortened).toContain("read the keys of †state.pages");
    // a reference short enough is whole, with no such line
    await commitOk(store, { callId: "small", writes: [write(["small"], 1)] });
    expect((await summarize(store, THREAD, { refs: ["†state.small"] })).text).not.toContain("shortened");
  });

  it("long call ids and tool names are capped too", async () => {
    const store = createMemoryStore();
    await commitOk(store, { callId: "c".repeat(3000), tool: "t".repeat(3000), writes: [write(["x"], 1)] });
    const [entry] = (await summarize(store, THREAD)).entries;
    expect(entry?.callId.length).toBe(ENTRY_CAPS.name);
    expect(entry?.tool.length).toBe(ENTRY_CAPS.name);
  });
});
