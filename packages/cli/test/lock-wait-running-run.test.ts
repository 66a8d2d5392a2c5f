import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { threadId as currentThreadId } from "node:worker_threads";
import { createEngine } from "obelisk";
import { createSqliteStore } from "obelisk/sqlite";
import { afterEach, describe, expect, it } from "vitest";
import { cliInProcess, fixture, tempDir } from "./cli-harness.js";

declare global {
  var obeliskTestGate: Promise<void> | undefined;
  var obeliskTestStarted: (() => void) | undefined;
}

type Json = Record<string, unknown>;

/** `text` matched literally in a RegExp. */
const literal = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** Runs the CLI in-process (from source) with `--format json`; returns the exit code and the parsed stdout. */
async function cli(args: string[], cwd: string): Promise<{ code: number; json: Json }> {
  const { code, stdout } = await cliInProcess([...args, "--format", "json"], cwd);
  return { code, json: JSON.parse(stdout) as Json };
}

const store = ["--store", "sqlite:s.db", "--thread", "t"];
const tools = ["--tools", fixture("gate-tools.mjs")];

/**
 * `before` runs, then `hold` (an automatic id) waits for the test's gate, then `after` waits for `hold`: while
 * the gate is closed the run is `running` with one call record, one call in flight and one not started.
 */
const PLAN = [
  { _tool: "echo", _id: "before", _outputPath: "†state.before" },
  { _tool: "hold", after: "{†state.before}", _outputPath: "†state.h" },
  { _tool: "echo", _id: "after", text: "{†state.h}", _outputPath: "†state.after" },
];

/** Closes the gate-tools' gate: `hold` waits on it; `started` settles once `hold` runs, `open()` lets it go. */
function closeGate(): { open: () => void; started: Promise<void> } {
  let open!: () => void;
  globalThis.obeliskTestGate = new Promise<void>((resolve) => {
    open = resolve;
  });
  const started = new Promise<void>((resolve) => {
    globalThis.obeliskTestStarted = resolve;
  });
  return { open, started };
}

/** A run held `running` until `open()`: `result` is its CLI outcome, `runId` its id. */
async function heldRun(cwd: string): Promise<{
  runId: string;
  open: () => void;
  result: Promise<{ code: number; json: Json }>;
}> {
  writeFileSync(join(cwd, "plan.json"), JSON.stringify(PLAN));
  const { open, started } = closeGate();
  const result = cli(["run", "plan.json", ...tools, ...store], cwd);
  await started;
  const listed = await cli(["runs", "list", ...store, "--status", "running"], cwd);
  const runs = listed.json.runs as { runId: string }[];
  expect(runs).toHaveLength(1);
  return { runId: runs[0]?.runId ?? "", open, result };
}

afterEach(() => {
  globalThis.obeliskTestGate = undefined;
  globalThis.obeliskTestStarted = undefined;
});

describe("obelisk runs show of a running run", () => {
  it("lists the plan's calls without a record as not finished (json: unfinished), and names the process that holds its thread (json: holder)", async () => {
    const cwd = tempDir();
    const { runId, open, result } = await heldRun(cwd);
    try {
      const shown = await cli(["runs", "show", runId, "--store", "sqlite:s.db"], cwd);
      expect(shown.code).toBe(0);
      // the existing fields are unchanged: the run and its call records; holder: who holds its thread
      expect(shown.json).toEqual({
        run: expect.objectContaining({ runId, status: "running", threadId: "t" }),
        calls: [expect.objectContaining({ callId: "before", tool: "echo", status: "succeeded" })],
        unfinished: [
          { callId: expect.stringMatching(/^hold\$\d+$/), tool: "hold" },
          { callId: "after", tool: "echo" },
        ],
        holder: {
          host: hostname(),
          pid: process.pid,
          workerThreadId: currentThreadId,
          sameProcess: true,
          heartbeatAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
          heartbeatAgeMs: expect.any(Number),
          staleMs: 30_000,
        },
      });
      const holdId = (shown.json.unfinished as { callId: string }[])[0]?.callId ?? "";
      const text = await cliInProcess(["runs", "show", runId, "--store", "sqlite:s.db"], cwd);
      expect(text.code).toBe(0);
      const lines = text.stdout.split("\n");
      expect(lines[0]).toBe("Run running — 1 call record, 2 calls not finished");
      expect(text.stdout).toContain("\n  not finished (in flight or not started)\n");
      expect(text.stdout).toMatch(
        new RegExp(`\\n {2}call +tool\\n {2}${holdId.replace("$", "\\$")} +hold\\n {2}after +echo\\n`),
      );
      const worker = currentThreadId === 0 ? "" : ` \\(worker thread ${currentThreadId}\\)`;
      expect(text.stdout).toMatch(
        new RegExp(
          `\\nstill running: held by pid ${process.pid} on ${literal(hostname())}${worker}, heartbeat \\d+ m?s ago \\(taken over after 30 s without one\\)\\n`,
        ),
      );
      expect(text.stdout).toContain(
        `\nstuck? stop that process; then obelisk resume ${runId} --tools <module> --store sqlite:s.db continues the run (completed calls are satisfied)\n`,
      );
      open();
      expect((await result).code).toBe(0);
      // once it has ended, every call has its record: nothing is left unfinished
      const ended = await cli(["runs", "show", runId, "--store", "sqlite:s.db"], cwd);
      expect(ended.json.unfinished).toEqual([]);
      expect(ended.json).not.toHaveProperty("holder");
      expect((ended.json.calls as { callId: string }[]).map((call) => call.callId)).toEqual([
        "before",
        holdId,
        "after",
      ]);
      const endedText = await cliInProcess(["runs", "show", runId, "--store", "sqlite:s.db"], cwd);
      expect(endedText.stdout.split("\n")[0]).toMatch(/^Run succeeded in \S+ m?s — 3 call records$/);
      expect(endedText.stdout).not.toContain("not finished");
      expect(endedText.stdout).not.toContain("still running");
      expect(endedText.stdout).not.toContain("held by");
    } finally {
      open();
    }
  });
  it("a streamed run (engine.open) lists the calls appended so far that have no record", async () => {
    const cwd = tempDir();
    const { default: gateTools } = (await import(fixture("gate-tools.mjs"))) as { default: unknown[] };
    const { open, started } = closeGate();
    const engine = createEngine({ tools: gateTools as never, store: createSqliteStore(join(cwd, "s.db")) });
    try {
      const stream = await engine.open({ threadId: "t" });
      stream.add({ _tool: "hold", _id: "h", _outputPath: "†state.h" });
      stream.add({ _tool: "echo", text: "{†state.h}", _outputPath: "†state.e" });
      await started;
      const shown = await cli(["runs", "show", stream.runId, "--store", "sqlite:s.db"], cwd);
      expect(shown.json).toMatchObject({
        run: { runId: stream.runId, status: "running", streamed: true },
        calls: [],
        unfinished: [
          { callId: "h", tool: "hold" },
          { callId: expect.stringMatching(/^echo\$\d+$/), tool: "echo" },
        ],
      });
      open();
      expect((await stream.close()).status).toBe("succeeded");
      const ended = await cli(["runs", "show", stream.runId, "--store", "sqlite:s.db"], cwd);
      expect(ended.json.unfinished).toEqual([]);
    } finally {
      open();
      await engine.close();
    }
  });
});

describe("obelisk runs show: the holder of a running run's thread", () => {
  it("a holder whose heartbeat is past staleMs (a hung process) is named, with how long it sent none", async () => {
    const cwd = tempDir();
    const { default: gateTools } = (await import(fixture("gate-tools.mjs"))) as { default: unknown[] };
    const { open, started } = closeGate();
    // the holder's clock stands still at its start: by the CLI's clock its heartbeat is months old
    const frozen = Date.UTC(2026, 0, 1);
    const store = createSqliteStore(join(cwd, "s.db"), {
      now: () => frozen,
      lock: { heartbeatMs: 29_000 },
    });
    const engine = createEngine({ tools: gateTools as never, store });
    try {
      const stream = await engine.open({ threadId: "t" });
      stream.add({ _tool: "hold", _id: "h", _outputPath: "†state.h" });
      await started;
      const shown = await cli(["runs", "show", stream.runId, "--store", "sqlite:s.db"], cwd);
      const holder = shown.json.holder as { heartbeatAgeMs: number; staleMs: number };
      expect(holder).toMatchObject({
        pid: process.pid,
        heartbeatAt: "2026-01-01T00:00:00.000Z",
        staleMs: 30_000,
      });
      expect(holder.heartbeatAgeMs).toBeGreaterThan(holder.staleMs);
      const text = await cliInProcess(["runs", "show", stream.runId, "--store", "sqlite:s.db"], cwd);
      expect(text.stdout).toMatch(
        /\nstill running: held by pid \d+ on .+, but no heartbeat for \d+ min \d+ s \(over 30 s: hung or gone; the next command that takes the thread's lock takes it over and marks the run interrupted\)\n/,
      );
      // reading it changed nothing: the run is still running, its holder's heartbeat as it was
      const again = await cli(["runs", "show", stream.runId, "--store", "sqlite:s.db"], cwd);
      expect(again.json).toMatchObject({
        run: { status: "running" },
        holder: { heartbeatAt: "2026-01-01T00:00:00.000Z" },
      });
      open();
      expect((await stream.close()).status).toBe("succeeded");
    } finally {
      open();
      await engine.close();
    }
  });
});

describe("--lock-wait and THREAD_BUSY while a run holds the thread", () => {
  it("a refused command names the holding run and points at --lock-wait; --lock-wait waits for the lock", async () => {
    const cwd = tempDir();
    const { runId, open, result } = await heldRun(cwd);
    try {
      // a command given a long wait does not settle while the run holds the thread
      let settled = false;
      const waiting = cli(
        ["state", "set", ...store, "--ref", "†state.a", "--value", "1", "--lock-wait", "600000"],
        cwd,
      );
      void waiting.then(() => {
        settled = true;
      });
      const refusals = [
        ["state", "set", ...store, "--ref", "†state.b", "--value", "1"],
        ["state", "unset", ...store, "--ref", "†state.before"],
        ["state", "reset", ...store],
        ["state", "keep", ...store, "--last", "0"],
        ["state", "delete", ...store],
        ["run", "plan.json", ...tools, ...store],
        ["resume", runId, ...tools, "--store", "sqlite:s.db"],
      ];
      for (const args of refusals) {
        const refused = await cli(args, cwd);
        const error = refused.json.error as { code: string; message: string };
        expect([args.slice(0, 2).join(" "), refused.code, error.code]).toEqual([
          args.slice(0, 2).join(" "),
          1,
          "THREAD_BUSY",
        ]);
        expect(error.message).toContain(`: run ${runId} holds it (started `);
        expect(error.message).toContain(
          `(runs on one thread never overlap: wait for run ${runId} to end (obelisk runs show ${runId} --store sqlite:s.db), or let the command wait for the lock with --lock-wait <ms>)`,
        );
        expect(error.message).not.toContain("pass a lock wait time");
      }
      // a wait that ran out says how long it waited
      const short = await cli(["state", "reset", ...store, "--lock-wait", "1"], cwd);
      expect(short.code).toBe(1);
      expect((short.json.error as { message: string }).message).toContain(
        "or let the command wait for the lock with --lock-wait <ms> (this one waited 1 ms))",
      );
      expect(settled).toBe(false);
      open();
      expect((await result).code).toBe(0);
      expect(await waiting).toEqual({
        code: 0,
        json: { ok: true, threadId: "t", ref: "†state.a", value: 1 },
      });
      const got = await cli(["state", "get", ...store, "--ref", "†state.a"], cwd);
      expect(got.json).toEqual({ found: true, value: 1 });
    } finally {
      open();
    }
  });

  it("run and resume wait with --lock-wait too", async () => {
    const cwd = tempDir();
    const { runId, open, result } = await heldRun(cwd);
    try {
      writeFileSync(
        join(cwd, "other.json"),
        JSON.stringify([{ _tool: "echo", text: "x", _outputPath: "†state.x" }]),
      );
      const other = cli(["run", "other.json", ...tools, ...store, "--lock-wait", "600000"], cwd);
      const resumed = cli(
        ["resume", runId, ...tools, "--store", "sqlite:s.db", "--lock-wait", "600000"],
        cwd,
      );
      open();
      expect((await result).code).toBe(0);
      expect((await other).code).toBe(0);
      expect((await resumed).code).toBe(0);
    } finally {
      open();
    }
  });
});

describe("obelisk state vacuum while a run holds a thread", () => {
  it("is refused with THREAD_BUSY naming the thread and the run (exit 1), the file left as it was; afterwards it works", async () => {
    const cwd = tempDir();
    const { runId, open, result } = await heldRun(cwd);
    try {
      const before = createHash("sha256")
        .update(readFileSync(join(cwd, "s.db")))
        .digest("hex");
      const refused = await cli(["state", "vacuum", "--store", "sqlite:s.db"], cwd);
      expect(refused.code).toBe(1);
      const error = refused.json.error as { code: string; message: string; data: unknown };
      expect(error).toMatchObject({ code: "THREAD_BUSY", data: { threadId: "t" } });
      expect(error.message).toContain('thread "t" is locked by');
      expect(error.message).toContain(`: run ${runId} holds it (started `);
      expect(
        createHash("sha256")
          .update(readFileSync(join(cwd, "s.db")))
          .digest("hex"),
      ).toBe(before);
      open();
      expect((await result).code).toBe(0);
      const vacuumed = await cli(["state", "vacuum", "--store", "sqlite:s.db"], cwd);
      expect(vacuumed).toMatchObject({ code: 0, json: { ok: true } });
    } finally {
      open();
    }
  });
});

describe("--lock-wait usage errors (exit 2, before any store is opened)", () => {
  it("refuses a value that is not a whole number of ms, a misspelt flag, and the flag where no lock is waited for", async () => {
    const cwd = tempDir();
    const cases: [string[], string][] = [
      [
        ["state", "set", "--ref", "†state.a", "--value", "1", "--lock-wait", "-1"],
        "expected a whole number of milliseconds from 0 to 2147483647",
      ],
      [
        ["state", "reset", "--lock-wait", "1.5"],
        "expected a whole number of milliseconds from 0 to 2147483647",
      ],
      [["state", "keep", "--last", "1", "--lock-wait", "soon"], "expected a whole number of milliseconds"],
      [["state", "delete", "--thread", "t", "--lock-wait", "2147483648"], "argument '2147483648' is invalid"],
      [["run", "plan.json", ...tools, "--lock-wait", "1e3"], "argument '1e3' is invalid"],
      [
        ["state", "unset", "--ref", "†state.a", "--lock-wiat", "5"],
        "unknown option '--lock-wiat' (Did you mean --lock-wait?)",
      ],
      [
        ["state", "get", "--ref", "†state.a", "--lock-wait", "5"],
        "unknown option '--lock-wait': this command never waits for a thread's lock (run, resume, state set, unset, reset, keep and delete do)",
      ],
      [
        ["runs", "prune", "--keep", "1", "--lock-wait", "5"],
        "unknown option '--lock-wait': this command never waits",
      ],
    ];
    for (const [args, message] of cases) {
      const refused = await cli(args, cwd);
      expect([args.join(" "), refused.code, refused.json]).toEqual([
        args.join(" "),
        2,
        { error: { code: "USAGE", message: expect.stringContaining(message) } },
      ]);
    }
    // nothing was created
    expect((await cli(["runs", "list"], cwd)).json).toEqual({ runs: [] });
  });

  it("--lock-wait 0 is accepted (fail at once, the default)", async () => {
    const cwd = tempDir();
    const set = await cli(
      ["state", "set", "--store", "sqlite:s.db", "--ref", "†state.a", "--value", "1", "--lock-wait", "0"],
      cwd,
    );
    expect(set).toEqual({ code: 0, json: { ok: true, threadId: "default", ref: "†state.a", value: 1 } });
  });
});
