import { afterEach, describe, expect, it, vi } from "vitest";
import { createEngine, defineTool } from "./index.js";

const echo = defineTool({
  name: "echo",
  description: "Answers its value",
  input: { type: "object", properties: { v: {} }, required: ["v"] },
  run: (args) => args.v,
});
const CALLS = 1000;

/** `CALLS` calls, each adding its own key to `†state.m` with `method`. */
const fanIn = (method: "merge" | "assign") =>
  Array.from({ length: CALLS }, (_, i) => ({
    _tool: "echo",
    _id: `c${i}`,
    v: { [`k${i}`]: i },
    _outputPath: "†state.m",
    _outputMethod: method,
  }));

/**
 * Calls of `spy` on the fan-in's target (an object with more than 300 keys at the end: the target grows in
 * place, so the calls made while it was smaller count too).
 */
const onWide = (spy: { mock: { calls: unknown[][] } }): number =>
  spy.mock.calls.filter(
    ([value]) => typeof value === "object" && value !== null && Object.keys(value).length > 300,
  ).length;

afterEach(() => {
  vi.restoreAllMocks();
});

describe("many calls merging or assigning into one object", () => {
  for (const method of ["merge", "assign"] as const) {
    it(`${method}: ends with every key in plan order and the variable's facts of the whole value, walking the object once, not per call`, async () => {
      const engine = createEngine({ tools: [echo] });
      const keys = vi.spyOn(Object, "keys");
      const isFrozen = vi.spyOn(Object, "isFrozen");
      const result = await engine.run(fanIn(method), { threadId: "t" });
      vi.restoreAllMocks();
      const wideKeys = onWide(keys);
      const wideFrozen = onWide(isFrozen);
      expect(result.status).toBe("succeeded");
      const m = (await engine.get("t", "†state.m")).value as Record<string, number>;
      expect(Object.keys(m)).toEqual(Array.from({ length: CALLS }, (_, i) => `k${i}`));
      // The same facts as the value written whole at once.
      const whole = createEngine({ tools: [echo] });
      await whole.run([{ _tool: "echo", v: m, _outputPath: "†state.m" }], { threadId: "t" });
      const entry = async (of: typeof engine) =>
        (await of.summarize("t")).entries.find((e) => e.reference === "†state.m");
      const [fanned, written] = [await entry(engine), await entry(whole)];
      expect(fanned).toMatchObject({ count: CALLS, countUnit: "keys", bytes: JSON.stringify(m).length });
      expect(fanned?.preview).toBe(written?.preview);
      // Was a preview (Object.keys) and a freeze check (Object.isFrozen) of the whole object per call:
      // n calls cost O(n²) (8,000 merges: 45 s). The preview is now made while the object has fewer keys
      // than a preview has characters (240), then kept; the freeze check once per read of the state.
      expect(wideKeys).toBeLessThan(300);
      expect(wideFrozen).toBeLessThan(40);
    });
  }
});
