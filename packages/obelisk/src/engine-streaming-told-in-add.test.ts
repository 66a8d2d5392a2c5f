import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { storeKinds } from "./__fixtures__/stores.js";
import { createEngine, type Engine, type ToolDefinition } from "./index.js";

const tools: ToolDefinition[] = [
  { name: "greet", input: { type: "object", properties: { text: { type: "string" } } }, run: (args) => args },
  {
    name: "join",
    input: { type: "object", properties: { items: { type: "array" } } },
    run: (args) => ((args as { items: string[] }).items ?? []).join(" | "),
  },
];

/** SPEC §10's run result: these keys and no others, for a stream as for any run. */
const RUN_RESULT_KEYS = ["calls", "durationMs", "errors", "planHash", "runId", "state", "status", "threadId"];

describe.each(storeKinds())(
  "a stream tells refusals and warnings in add's answer only ($name store, decision 0044)",
  (kind) => {
    let engine: Engine | undefined;
    afterEach(async () => {
      await engine?.close();
      engine = undefined;
      kind.cleanup();
    });

    it("a refused call is in add's answer; close()'s result lists the calls that ran, in §10's shape", async () => {
      engine = createEngine({ tools, store: kind.open() });
      const calls = [
        { _tool: "greet", text: "a", _outputPath: "†state.a" },
        { _tool: "gret", text: "x" },
        { _tool: "greet", text: "b", _outputPath: "†state.b" },
      ];
      const run = await engine.open({ threadId: "t" });
      const answers = calls.map((call) => run.add(call));
      expect(answers.map((added) => added.ok)).toEqual([true, false, true]);
      expect(answers[1]?.diagnostics).toEqual([
        expect.objectContaining({ code: "TOOL_UNKNOWN", severity: "error", hint: 'did you mean "greet"?' }),
      ]);
      const result = await run.close();
      expect(Object.keys(result).sort()).toEqual(RUN_RESULT_KEYS);
      expect(result.status).toBe("succeeded");
      expect(Object.keys(result.calls)).toEqual([answers[0]?.callId, answers[2]?.callId]);
      expect(result.errors).toEqual([]);
      // the same calls as one plan are refused whole
      await expect(engine.run(calls, { threadId: "batch" })).rejects.toMatchObject({ code: "PLAN_INVALID" });
    });

    it("a STREAM_ORDER warning is in the writer's answer, not in the result", async () => {
      engine = createEngine({ tools, store: kind.open() });
      await engine.set("t", "†state.results", ["old"]);
      const run = await engine.open({ threadId: "t" });
      const reader = run.add({ _tool: "join", items: "†state.results", _outputPath: "†state.report" });
      const writer = run.add({
        _tool: "greet",
        text: "new",
        _outputPath: "†state.results",
        _outputMethod: "push",
      });
      expect(reader).toMatchObject({ ok: true, diagnostics: [] });
      expect(writer).toMatchObject({
        ok: true,
        diagnostics: [expect.objectContaining({ code: "STREAM_ORDER", severity: "warning" })],
      });
      const result = await run.close();
      expect(Object.keys(result).sort()).toEqual(RUN_RESULT_KEYS);
      expect(result).toMatchObject({ status: "succeeded", errors: [], state: { report: "old" } });
    });
  },
);

describe("the documented streaming loops keep add's answer (decision 0044)", () => {
  const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");
  it.each(["docs/plan-language.md", "packages/obelisk/README.md", "packages/core/README.md"])(
    "%s",
    (file) => {
      const text = readFileSync(join(root, file), "utf8");
      const fenced = [...text.matchAll(/```[\s\S]*?```/g)].map(([block]) => block);
      const inline = [...text.replace(/```[\s\S]*?```/g, "").matchAll(/`[^`]+`/g)].map(([span]) => span);
      // the loops shown (a fenced snippet, or one written inline), not prose naming `run.add(call)`
      const loops = [...fenced, ...inline].filter(
        (code) => /\bfor\b/.test(code) && code.includes("run.add(call)"),
      );
      expect(loops.length).toBeGreaterThan(0);
      for (const loop of loops) {
        // every loop reads add's answer: `const added = run.add(call)` (the old snippets dropped it)
        for (const { index } of loop.matchAll(/run\.add\(call\)/g))
          expect(loop.slice(0, index), loop).toMatch(/added = $/);
      }
      expect(text).toMatch(/added\.ok/);
    },
  );
});
