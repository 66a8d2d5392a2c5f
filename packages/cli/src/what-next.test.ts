import type { RunResult } from "obelisk";
import { describe, expect, it } from "vitest";
import { whatNext } from "./what-next.js";

const cancelled = {
  runId: "r1",
  threadId: "t",
  status: "cancelled",
  calls: {},
} as unknown as RunResult;

describe("whatNext: the resume of a cancelled run", () => {
  const finish = (rerun?: true | readonly string[]) =>
    whatNext(cancelled, { command: "obelisk", store: "sqlite:s.db", tools: "t.mjs", rerun }).find((line) =>
      line.startsWith("finish what is left:"),
    );

  it("repeats --rerun (not recorded with the run), last, alone or with its ids", () => {
    expect(finish()).toBe("finish what is left:     obelisk resume r1 --tools t.mjs --store sqlite:s.db");
    expect(finish(true)).toBe(
      "finish what is left:     obelisk resume r1 --tools t.mjs --store sqlite:s.db --rerun",
    );
    expect(finish(["a", "b c"])).toBe(
      "finish what is left:     obelisk resume r1 --tools t.mjs --store sqlite:s.db --rerun a 'b c'",
    );
  });
});
