import { describe, expect, it } from "vitest";
import { z } from "zod";
import { createEngine, defineTool } from "./index.js";

/** A tool that takes a person's approval (`approvalParams`) and counts its runs. */
function deleting(runs: string[]) {
  return defineTool({
    name: "deleteAccount",
    input: z.object({ user: z.string(), approved: z.unknown() }),
    approvalParams: ["approved"],
    run: (args) => {
      runs.push(args.user);
      return { deleted: args.user };
    },
  });
}

const plan = [
  {
    _tool: "deleteAccount",
    _id: "del",
    user: "u7",
    approved: "†state.approvals.delete_u7",
    _outputPath: "†state.deleted",
  },
];

describe("an approval answered false or null (decision 0048)", () => {
  it.each([false, null])(
    "%s refuses the call: rejected, the tool not run, nothing written",
    async (answer) => {
      const runs: string[] = [];
      const engine = createEngine({ tools: [deleting(runs)] });
      expect((await engine.run(plan)).calls.del?.status).toBe("waiting");
      await engine.set("default", "†state.approvals.delete_u7", answer);
      const refused = await engine.run(plan);
      expect(refused.calls.del).toMatchObject({
        status: "rejected",
        reason: `approval †state.approvals.delete_u7 is ${String(answer)}: refused, so the call did not run (write another value there to approve it)`,
      });
      expect(runs).toEqual([]);
      expect(refused.state).not.toHaveProperty("deleted");
      await engine.set("default", "†state.approvals.delete_u7", { by: "ops" });
      expect((await engine.run(plan)).calls.del?.status).toBe("succeeded");
      expect(runs).toEqual(["u7"]);
    },
  );

  it("is not asked of the confirm hook, and any other value (0 here) approves", async () => {
    const asked: string[] = [];
    const runs: string[] = [];
    const engine = createEngine({
      tools: [deleting(runs)],
      confirm: (request) => {
        asked.push(request.callId);
        return { action: "approve" };
      },
    });
    await engine.set("default", "†state.approvals.delete_u7", false);
    expect((await engine.run(plan)).calls.del?.status).toBe("rejected");
    expect(asked).toEqual([]);
    await engine.set("default", "†state.approvals.delete_u7", 0);
    expect((await engine.run(plan)).calls.del?.status).toBe("succeeded");
    expect(asked).toEqual(["del"]);
  });

  it("leaves a tool without approvalParams to read the value itself", async () => {
    const seen: unknown[] = [];
    const gate = defineTool({
      name: "gate",
      input: z.object({ ok: z.unknown() }),
      run: (args) => seen.push(args.ok),
    });
    const engine = createEngine({ tools: [gate] });
    await engine.set("default", "†state.approvals.go", false);
    const result = await engine.run([
      { _tool: "gate", _id: "g", ok: "†state.approvals.go", _outputPath: "†state.g" },
    ]);
    expect(result.calls.g?.status).toBe("succeeded");
    expect(seen).toEqual([false]);
  });
});
