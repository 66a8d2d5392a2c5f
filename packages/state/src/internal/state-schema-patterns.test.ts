import { describe, expect, it } from "vitest";
import { commitOf, THREAD, write } from "../conformance/commit-fixtures.js";
import { createMemoryStore } from "../memory-store.js";
import { createStateValidator } from "./state-validator.js";

// RE2's `\s` is ASCII whitespace without `\v`; JavaScript's also matches `\v` (decision 0057): which engine
// checked a value shows in the answer for "\v"
const VERTICAL_TAB = "\v";

describe("state-schema patterns run on re2js, linear in the value (decision 0057, Amended)", () => {
  it("a `pattern` is matched by RE2", () => {
    const validator = createStateValidator({
      type: "object",
      properties: { gap: { type: "string", pattern: "^\\s$" } },
    });
    expect(validator.violation({ gap: " " })).toBeUndefined();
    expect(validator.violation({ gap: VERTICAL_TAB })).toEqual(["gap"]);
  });

  it("so is a `patternProperties` key", () => {
    const validator = createStateValidator({
      type: "object",
      patternProperties: { "^\\s$": { type: "number" } },
    });
    expect(validator.violation({ " ": "x" })).toEqual([" "]);
    expect(validator.violation({ [VERTICAL_TAB]: "x" })).toBeUndefined();
  });

  it("a pattern RE2 cannot run (a backreference) keeps JavaScript's engine, as for tool schemas", () => {
    const validator = createStateValidator({
      type: "object",
      properties: { twice: { type: "string", pattern: "^(a+)-\\1$" } },
    });
    expect(validator.violation({ twice: "aa-aa" })).toBeUndefined();
    expect(validator.violation({ twice: "aa-a" })).toEqual(["twice"]);
  });

  it("a commit's write is checked the same way", async () => {
    const store = createMemoryStore();
    await store.openThread(THREAD, {
      stateSchema: { type: "object", properties: { gap: { type: "string", pattern: "^\\s$" } } },
    });
    const refused = await store.commitCall(commitOf({ callId: "c", writes: [write(["gap"], VERTICAL_TAB)] }));
    expect(refused).toMatchObject({ ok: false });
    const accepted = await store.commitCall(commitOf({ callId: "d", writes: [write(["gap"], " ")] }));
    expect(accepted).toMatchObject({ ok: true });
    await store.close();
  });
});
