import { describe, expect, it } from "vitest";
import { createEngine } from "./index.js";

/** A 660-byte array (60 eight-letter strings), fresh each call. */
const arr = { name: "arr", fresh: true, run: () => Array.from({ length: 60 }, () => "abcdefgh") };
const ITEM_BYTES = 661; // JSON of the array

describe("maxValueBytes holds the value a write leaves (decision 0071, security review 35 M3)", () => {
  it("a push or concat across runs that would pass the limit fails OUTPUT_TOO_LARGE and keeps the value", async () => {
    const engine = createEngine({ tools: [arr], limits: { maxValueBytes: 1000 } });
    for (const method of ["push", "concat"] as const) {
      const plan = [
        { _tool: "arr", _id: `${method}`, _outputPath: `†state.${method}`, _outputMethod: method },
      ];
      const first = await engine.run(plan, { threadId: method });
      expect(first.status).toBe("succeeded");
      const second = await engine.run(plan, { threadId: method });
      expect(second.calls[method]).toMatchObject({ status: "failed", error: { code: "OUTPUT_TOO_LARGE" } });
      expect(second.calls[method]?.error?.message).toContain("limits.maxValueBytes");
      const stored = await engine.get(method, `†state.${method}`);
      expect(JSON.stringify(stored.value).length).toBeLessThanOrEqual(ITEM_BYTES + 2);
    }
  });

  it("calls of one plan pushing to one path stop at the limit", async () => {
    const engine = createEngine({ tools: [arr], limits: { maxValueBytes: 2000 } });
    const plan = Array.from({ length: 5 }, (_, n) => ({
      _tool: "arr",
      _id: `p${n}`,
      _outputPath: "†state.log",
      _outputMethod: "push",
    }));
    const result = await engine.run(plan, { threadId: "t" });
    const failed = Object.values(result.calls).filter((call) => call?.error?.code === "OUTPUT_TOO_LARGE");
    expect(failed).toHaveLength(2);
    expect((result.state.log as unknown[]).length).toBe(3);
  });

  it("a fan-out whose copies together pass the limit fails OUTPUT_TOO_LARGE and writes nothing", async () => {
    const engine = createEngine({ tools: [arr], limits: { maxValueBytes: 2000 } });
    const targets = (count: number) => Array.from({ length: count }, (_, n) => `†state.f${n}`).join(" && ");
    const wide = await engine.run([{ _tool: "arr", _id: "wide", _outputPath: targets(4) }], {
      threadId: "f",
    });
    expect(wide.calls.wide).toMatchObject({ status: "failed", error: { code: "OUTPUT_TOO_LARGE" } });
    expect(wide.state).toEqual({});
    const narrow = await engine.run([{ _tool: "arr", _id: "narrow", _outputPath: targets(3) }], {
      threadId: "f",
    });
    expect(Object.keys(narrow.state).sort()).toEqual(["f0", "f1", "f2"]);
  });
});
