import { createToolRegistry } from "@obelisk/compiler";
import { createMemoryStore } from "@obelisk/state";
import { describe, expect, it } from "vitest";
import { PlanRunner } from "./plan-runner.js";

const registry = createToolRegistry([]);
const store = createMemoryStore();

describe("a runner's options", () => {
  it("have every member, in one order, however the caller built them", () => {
    const sparse = new PlanRunner({
      registry,
      store,
      threadId: "t",
      runId: "r",
      planHash: "sha256:h",
      input: {},
      state: {},
    });
    const spread = new PlanRunner({
      state: { a: 1 },
      input: null,
      planHash: "sha256:h",
      maxValueBytes: 100,
      runId: "r2",
      threadId: "t2",
      store,
      registry,
      ...{ failFast: true, resumeOf: "r0" },
    });
    expect(Object.keys(spread.options)).toEqual(Object.keys(sparse.options));
    expect(Object.keys(sparse.options)).toContain("resumedSettled");
    expect(sparse.options.maxValueBytes).toBeUndefined();
    expect(spread.options).toMatchObject({ maxValueBytes: 100, failFast: true, resumeOf: "r0", runId: "r2" });
  });
});
