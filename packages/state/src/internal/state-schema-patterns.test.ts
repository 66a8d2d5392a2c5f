import { describe, expect, it } from "vitest";
import { commitOf, THREAD, write } from "../conformance/commit-fixtures.js";
import { createMemoryStore } from "../memory-store.js";
import { createStateValidator } from "./state-validator.js";

// `\S` inside a class keeps RE2's meaning, which matches U+00A0 where JavaScript's does not (decision 0057;
// outside a class `.`, `\s` and `\S` are ECMA-262's since stop 39): which engine ran shows in the answer
const NO_BREAK_SPACE = "\u00a0";

describe("state-schema patterns run on re2js, linear in the value (decision 0057, Amended)", () => {
  it("a `pattern` is matched by RE2", () => {
    const validator = createStateValidator({
      type: "object",
      properties: { gap: { type: "string", pattern: "^[\\S]$" } },
    });
    expect(validator.violation({ gap: NO_BREAK_SPACE })).toBeUndefined();
    expect(validator.violation({ gap: " " })).toEqual(["gap"]);
  });

  it("so is a `patternProperties` key", () => {
    const validator = createStateValidator({
      type: "object",
      patternProperties: { "^[\\S]$": { type: "number" } },
    });
    expect(validator.violation({ [NO_BREAK_SPACE]: "x" })).toEqual([NO_BREAK_SPACE]);
    expect(validator.violation({ " ": "x" })).toBeUndefined();
  });

  it("with ECMA-262's ., \\s and \\S outside a class (stop 39): a one-line pattern refuses a carriage return", () => {
    const validator = createStateValidator({
      type: "object",
      properties: { line: { type: "string", pattern: "^.+$" }, gap: { type: "string", pattern: "^\\s$" } },
    });
    expect(validator.violation({ line: "a\rb" })).toEqual(["line"]);
    expect(validator.violation({ line: "a\u2028b" })).toEqual(["line"]);
    expect(validator.violation({ line: "ab", gap: "\v" })).toBeUndefined();
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
      stateSchema: { type: "object", properties: { gap: { type: "string", pattern: "^[\\S]$" } } },
    });
    const refused = await store.commitCall(commitOf({ callId: "c", writes: [write(["gap"], " ")] }));
    expect(refused).toMatchObject({ ok: false });
    const accepted = await store.commitCall(
      commitOf({ callId: "d", writes: [write(["gap"], NO_BREAK_SPACE)] }),
    );
    expect(accepted).toMatchObject({ ok: true });
    await store.close();
  });
});
