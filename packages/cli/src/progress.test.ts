import { describe, expect, it } from "vitest";
import type { CliIo } from "./cli-io.js";
import { createOutput } from "./output.js";
import { createProgress } from "./progress.js";

function fakeIo(isTTY: boolean): { io: CliIo; text: () => string } {
  let buffer = "";
  const stream = { isTTY, write: (chunk: string) => (buffer += chunk) };
  return { io: { stdout: stream, stderr: stream, env: { NO_COLOR: "1" }, cwd: "/" }, text: () => buffer };
}

const TOOLS: Record<string, string> = {
  fetch: "fetchRecords",
  stats: "computeStatistics",
  report: "writeReport",
};
const tool = (callId: string): string => TOOLS[callId] ?? callId;

describe("progress", () => {
  it("prints a line for each earlier run this run ended (run-superseded), counting no call", () => {
    const { io, text } = fakeIo(false);
    const progress = createProgress(createOutput(io, "text"), 1, () => 0);
    progress.handle({ type: "run-superseded", runId: "run-a", resumed: true });
    progress.handle({ type: "run-superseded", runId: "run-b", resumed: false });
    progress.stop();
    expect(text().split("\n")).toEqual([
      "  ⊝ ended  run run-a — this run continued it",
      "  ⊝ ended  run run-b — this run ran the same plan to its end",
      "",
    ]);
    expect(progress.counts()).toEqual({ pending: 1, running: 0, done: 0, failed: 0, blocked: 0 });
  });

  it("counts pending, running, done and blocked calls as events arrive", () => {
    const { io } = fakeIo(false);
    const progress = createProgress(createOutput(io, "text"), 3, () => 0);
    expect(progress.counts()).toEqual({ pending: 3, running: 0, done: 0, failed: 0, blocked: 0 });
    progress.handle({ type: "call-start", callId: "fetch", tool: tool("fetch"), attempt: 1 });
    expect(progress.counts()).toMatchObject({ pending: 2, running: 1 });
    progress.handle({
      type: "call-end",
      callId: "fetch",
      tool: tool("fetch"),
      status: "succeeded",
      durationMs: 5,
    });
    progress.handle({
      type: "call-end",
      callId: "stats",
      tool: tool("stats"),
      status: "blocked",
      detail: "upstream failed",
    });
    progress.handle({ type: "call-start", callId: "report", tool: tool("report"), attempt: 1 });
    progress.handle({
      type: "call-end",
      callId: "report",
      tool: tool("report"),
      status: "failed",
      durationMs: 1,
    });
    progress.stop();
    expect(progress.counts()).toEqual({ pending: 0, running: 0, done: 1, failed: 1, blocked: 1 });
  });

  it("prints plain lines without control codes when stdout is not a TTY", () => {
    const { io, text } = fakeIo(false);
    const progress = createProgress(createOutput(io, "text"), 3, () => 0);
    progress.handle({ type: "call-start", callId: "fetch", tool: tool("fetch"), attempt: 1 });
    progress.handle({
      type: "call-retry",
      callId: "fetch",
      tool: tool("fetch"),
      attempt: 2,
      message: "flaky",
    });
    progress.handle({
      type: "call-end",
      callId: "fetch",
      tool: tool("fetch"),
      status: "succeeded",
      durationMs: 12,
    });
    progress.stop();
    expect(text()).not.toContain("\x1b");
    expect(text()).toContain("start  fetch (fetchRecords)");
    expect(text()).toContain("retry  fetch (fetchRecords) attempt 2: flaky");
    expect(text()).toMatch(/succeeded fetch \(fetchRecords\) 12 ms/);
  });

  it("redraws a status line with the counts and elapsed time on a TTY", () => {
    const { io, text } = fakeIo(true);
    let now = 0;
    const progress = createProgress(createOutput(io, "text"), 3, () => now);
    now = 1500;
    progress.handle({ type: "call-start", callId: "stats", tool: tool("stats"), attempt: 1 });
    progress.stop();
    expect(text()).toContain("\r\x1b[2K");
    expect(text()).toMatch(/2 pending · 1 running · 0 done · 0 blocked 1\.5 s/);
  });

  it("prints nothing in json format", () => {
    const { io, text } = fakeIo(true);
    const progress = createProgress(createOutput(io, "json"), 3, () => 0);
    progress.handle({ type: "call-start", callId: "fetch", tool: tool("fetch"), attempt: 1 });
    progress.stop();
    expect(text()).toBe("");
  });
});
