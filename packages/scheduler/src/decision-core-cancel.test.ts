import type { Reference } from "@obelisk/core";
import { describe, expect, it } from "vitest";
import { fakeCall } from "./__fixtures__/fake-call.js";
import { DecisionCore } from "./decision-core.js";

/** A closed core over two push writers of one list (p0 before p1 in plan order). */
function twoWriters() {
  const core = new DecisionCore({ probe: { exists: (_r: Reference) => false }, closed: true });
  core.add([0, 1].map((i) => fakeCall(`p${i}`, i, { writes: [["†state.list"]], method: "push" })));
  return core;
}

const cancelledP1 = {
  type: "unsatisfied",
  index: 1,
  status: "cancelled",
  reason: expect.stringContaining("p0"),
};

describe("DecisionCore: an accumulating writer behind a cancelled one", () => {
  it("a held writer is not committed when the earlier writer of its path is cancelled (it runs again on resume)", () => {
    const core = twoWriters();
    expect(core.completed(1, 0)).toEqual([]);
    expect(core.settled(0, { status: "cancelled" })).toEqual([cancelledP1]);
    expect(core.settled(1, { status: "cancelled" })).toEqual([{ type: "finish" }]);
  });

  it("a writer completing after the earlier one was cancelled is not committed either", () => {
    const core = twoWriters();
    expect(core.settled(0, { status: "cancelled" })).toEqual([]);
    expect(core.completed(1, 0)).toEqual([cancelledP1]);
  });

  it("control: behind a failed or succeeded writer it is committed as usual", () => {
    for (const status of ["failed", "succeeded"] as const) {
      const core = twoWriters();
      expect(core.completed(1, 0)).toEqual([]);
      const info = status === "succeeded" ? { status, alternative: 0 } : { status };
      expect(core.settled(0, info)).toEqual([{ type: "commit", index: 1 }]);
    }
  });
});
