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

describe("whatNext: a failed run (review s41 r2 #7, decision 0103)", () => {
  const failed = (code: string) =>
    ({
      runId: "r2",
      threadId: "t",
      status: "failed",
      calls: {
        x: {
          status: "failed",
          tool: "boom",
          attempts: 1,
          durationMs: 1,
          wrote: [],
          error: { code, message: "m" },
        },
        y: { status: "blocked", tool: "echo", attempts: 0, durationMs: 0, wrote: [], reason: "upstream" },
      },
    }) as unknown as RunResult;
  const options = { command: "pnpm obelisk", store: "sqlite:s.db", tools: "t.mjs" };

  it("names the stack of a tool's error and the re-send that runs the failed and blocked calls", () => {
    expect(whatNext(failed("TOOL_ERROR"), { ...options, offersRerun: true })).toEqual([
      "inspect what was stored: pnpm obelisk state summary --thread t --store sqlite:s.db",
      "see the error's stack:   pnpm obelisk runs show r2 --store sqlite:s.db --verbose",
      "after the fix:           run the same command again (completed calls are satisfied: the failed and blocked ones run)",
    ]);
  });

  it("no stack line for an error the engine gave (a timeout); after a resume, the plan is sent with run", () => {
    expect(whatNext(failed("TIMEOUT"), options)).toEqual([
      "inspect what was stored: pnpm obelisk state summary --thread t --store sqlite:s.db",
      "after the fix:           send the plan again with pnpm obelisk run (completed calls are satisfied: the failed and blocked ones run)",
    ]);
  });
});
