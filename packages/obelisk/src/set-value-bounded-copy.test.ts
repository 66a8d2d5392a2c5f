import { describe, expect, it } from "vitest";
import { createEngine } from "./index.js";

/** An array-like Proxy claiming `length` items of 1, counting the items read. */
function claimedArray(length: number): { readonly value: unknown[]; readonly reads: () => number } {
  let reads = 0;
  const value = new Proxy([] as unknown[], {
    get: (target, key) => {
      if (key === "length") return length;
      if (typeof key === "string" && /^\d+$/.test(key)) {
        reads++;
        return 1;
      }
      return Reflect.get(target, key);
    },
  });
  return { value, reads: () => reads };
}

describe("engine.set copies its value within the engine's maxValueBytes (decision 0092)", () => {
  it("an array claiming three million items is refused with USAGE, its items not all read", async () => {
    const engine = createEngine({ tools: [], limits: { maxValueBytes: 1000 } });
    const huge = claimedArray(3_000_000);
    await expect(engine.set("t", "†state.v", huge.value)).rejects.toMatchObject({
      code: "USAGE",
      message: "†state.v: the value is larger than 1000 bytes of JSON (limits.maxValueBytes)",
      data: { reference: "†state.v", maxValueBytes: 1000 },
    });
    // Unbounded, the copy read every item (and with a billion, aborted the process allocating them). Bounded,
    // it stops ~500 items past the limit; core's quick copy reads up to its node budget (2^20) first.
    expect(huge.reads()).toBeLessThan(1_500_000);
    expect(await engine.get("t", "†state.v")).toMatchObject({ found: false });
    expect(await engine.store.getThread("t" as never)).toBeUndefined();
    await engine.set("t", "†state.v", [1, 2, 3]);
    expect(await engine.get("t", "†state.v")).toEqual({ found: true, value: [1, 2, 3] });
  });
});
