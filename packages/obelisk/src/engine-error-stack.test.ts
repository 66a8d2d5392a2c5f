import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createSqliteStore } from "@obelisk/state/sqlite";
import { afterEach, describe, expect, it } from "vitest";
import { agentTools, createEngine, defineTool, type RunEvent } from "./index.js";

/** A helper of the tool whose name must show in the stack the host gets. */
function readProfileName(user: { profile?: { name: string } }): string {
  return (user.profile as { name: string }).name.toUpperCase();
}

const bug = defineTool({
  name: "bug",
  input: { type: "object" },
  run: () => readProfileName({}),
});

const plan = {
  type: "plan",
  plan: [
    { _tool: "bug", _id: "b", _outputPath: "†state.b" },
    { _tool: "bug", _id: "routed", _outputPath: "†state.ok || †state.failure" },
  ],
};

let dir: string | undefined;
afterEach(() => {
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

describe("a tool's exception keeps its stack for the host, never for the model (review s32 M8, decision 0049)", () => {
  it("the call-end event and the stored call record (runs.show, also from SQLite) carry the stack", async () => {
    dir = mkdtempSync(join(tmpdir(), "obelisk-stack-"));
    const file = join(dir, "state.db");
    const events: RunEvent[] = [];
    const engine = createEngine({ tools: [bug], store: createSqliteStore(file) });
    const result = await engine.run(plan, { threadId: "t", onEvent: (event) => events.push(event) });
    expect(result.calls.b).toMatchObject({ status: "failed", error: { code: "TOOL_ERROR" } });
    const ended = events.find((event) => event.type === "call-end" && event.callId === "b");
    expect(ended).toMatchObject({
      error: { name: "TypeError", code: "TOOL_ERROR", stack: expect.stringContaining("readProfileName") },
    });
    // the tool's frames only: how the engine reached the tool differs between runs of one plan
    const stack = ended?.type === "call-end" ? (ended.error?.stack ?? "") : "";
    expect(stack).not.toMatch(/invoke-tool|dispatch-call|plan-runner/);
    await engine.close();
    const reopened = createEngine({ tools: [bug], store: createSqliteStore(file) });
    const shown = await reopened.runs.show(result.runId);
    for (const id of ["b", "routed"])
      expect(shown.calls.find((record) => record.callId === id)?.error?.stack, id).toContain(
        "readProfileName",
      );
    await reopened.close();
  });

  it("the run result, a failure branch's value, the summary and run_plan's answer do not", async () => {
    const events: RunEvent[] = [];
    const engine = createEngine({ tools: [bug], onEvent: (event) => events.push(event) });
    const result = await engine.run(plan, { threadId: "t" });
    expect(JSON.stringify(events)).toContain("readProfileName");
    expect(result.errors.map((error) => error.error)).toEqual([
      { code: "TOOL_ERROR", message: "Cannot read properties of undefined (reading 'name')" },
    ]);
    expect(JSON.stringify(result)).not.toContain("readProfileName");
    expect(await engine.get("t", "†state.failure")).toEqual({
      found: true,
      value: { name: "TypeError", message: expect.any(String), code: "TOOL_ERROR" },
    });
    expect((await engine.summarize("t")).text).not.toContain("readProfileName");
    const [, runPlan] = agentTools(engine, "model");
    const answer = await runPlan?.execute({ plan: { ...plan, plan: plan.plan.slice(0, 1) } });
    expect(answer).toMatchObject({ status: "failed" });
    expect(JSON.stringify(answer)).not.toContain("readProfileName");
  });

  it("only an Error with a stack gives one: a plain thrown object, or an Error without a stack, does not", async () => {
    const thrower = (value: unknown) =>
      defineTool({
        name: "thrower",
        input: { type: "object" },
        run: () => {
          throw value;
        },
      });
    const bare = Object.assign(new Error("no stack"), { stack: undefined });
    const given = [{ message: "plain", code: "E_PLAIN" }, bare, new RangeError("with a stack")];
    const stacks: unknown[] = [];
    for (const value of given) {
      const events: RunEvent[] = [];
      const engine = createEngine({ tools: [thrower(value)], onEvent: (event) => events.push(event) });
      await engine.run([{ _tool: "thrower", _id: "x" }], { threadId: "t" });
      const ended = events.find((event) => event.type === "call-end");
      stacks.push(ended?.type === "call-end" ? ended.error?.stack : "no call-end");
    }
    expect(stacks).toEqual([undefined, undefined, expect.stringMatching(/^RangeError: with a stack\n/)]);
  });
});
