import { describe, expect, it } from "vitest";
import { commitOf, THREAD, write } from "../conformance/commit-fixtures.js";
import { createMemoryStore } from "../memory-store.js";
import { createStateValidator } from "./state-validator.js";

// RE2 takes `\-` outside a class, which JavaScript's engine refuses to compile with the `u` flag ajv gives
// (and `.`, `\s`, `\S` match as in JavaScript since stop 39): a schema with it compiles only on RE2
const RE2_ONLY = "^x\\-$";

describe("state-schema patterns run on re2js, linear in the value (decision 0057, Amended)", () => {
  it("a `pattern` is matched by RE2", () => {
    const validator = createStateValidator({
      type: "object",
      properties: { gap: { type: "string", pattern: RE2_ONLY } },
    });
    expect(validator.violation({ gap: "x-" })).toBeUndefined();
    expect(validator.violation({ gap: "y-" })).toEqual(["gap"]);
  });

  it("so is a `patternProperties` key", () => {
    const validator = createStateValidator({
      type: "object",
      patternProperties: { [RE2_ONLY]: { type: "number" } },
    });
    expect(validator.violation({ "x-": "x" })).toEqual(["x-"]);
    expect(validator.violation({ "y-": "x" })).toBeUndefined();
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
      stateSchema: { type: "object", properties: { gap: { type: "string", pattern: RE2_ONLY } } },
    });
    const refused = await store.commitCall(commitOf({ callId: "c", writes: [write(["gap"], "y-")] }));
    expect(refused).toMatchObject({ ok: false });
    const accepted = await store.commitCall(commitOf({ callId: "d", writes: [write(["gap"], "x-")] }));
    expect(accepted).toMatchObject({ ok: true });
    await store.close();
  });
});
