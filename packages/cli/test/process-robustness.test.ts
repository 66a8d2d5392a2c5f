import { closeSync, existsSync, openSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { fixture, inProcessJson, obeliskSpawned, tempDir } from "./cli-harness.js";

const tools = fixture("misbehaving-tools.mjs");

/** The status of the one run recorded in the store of `cwd`. */
async function recordedStatus(cwd: string): Promise<unknown> {
  const runs = await inProcessJson(["runs", "list", "--store", "sqlite:s.db"], cwd);
  const list = runs.json.runs as { status: string }[];
  expect(list).toHaveLength(1);
  return list[0]?.status;
}

function parsed(stdout: string): Record<string, unknown> {
  return JSON.parse(stdout) as Record<string, unknown>;
}

describe.concurrent("obelisk: closed or failing stdout and stderr (review-cli 1)", () => {
  it("a reader that closed stdout (| head) does not end the run: it finishes, is recorded, and the exit code is the run's", async () => {
    const cwd = tempDir();
    const args = ["run", fixture("pause-then-fail-plan.json"), "--tools", tools, "--store", "sqlite:s.db"];
    const result = await obeliskSpawned(args, cwd, { close: ["stdout"] });
    expect(result.code).toBe(1);
    expect(result.stderr).toBe("");
    expect(await recordedStatus(cwd)).toBe("failed");
  });

  it("a closed stderr does not end the run either (the stalled notice is dropped, the result is printed)", async () => {
    const cwd = tempDir();
    const args = ["run", fixture("stall-plan.json"), "--tools", fixture("never-settles.mjs")];
    const result = await obeliskSpawned([...args, "--store", "sqlite:s.db", "--format", "json"], cwd, {
      close: ["stderr"],
    });
    expect(result.code).toBe(1);
    expect(parsed(result.stdout)).toMatchObject({ status: "cancelled" });
    expect(await recordedStatus(cwd)).toBe("cancelled");
  });

  it.skipIf(!existsSync("/dev/full"))(
    "a stdout write that fails otherwise (a full disk) is one line on stderr, no stack trace, exit 1",
    async () => {
      const cwd = tempDir();
      const full = openSync("/dev/full", "w");
      const args = [
        "run",
        fixture("shout-plan.json"),
        "--tools",
        fixture("tools.js"),
        "--input",
        '{"word":"x"}',
      ];
      try {
        for (const format of ["text", "json"]) {
          const result = await obeliskSpawned([...args, "--store", "memory", "--format", format], cwd, {
            stdoutFd: full,
          });
          expect(result.code).toBe(1);
          expect(result.stderr).toMatch(/^error \[INTERNAL\] cannot write to stdout: ENOSPC.*\n$/);
        }
      } finally {
        closeSync(full);
      }
    },
  );
});

describe.concurrent("obelisk: a tool's uncaught exception or unhandled rejection (review-cli 2)", () => {
  it("an exception thrown in a tool's timer cancels the run: one error line, the run result, recorded cancelled, exit 1", async () => {
    const cwd = tempDir();
    const args = ["run", fixture("throw-later-plan.json"), "--tools", tools, "--store", "sqlite:s.db"];
    const result = await obeliskSpawned(args, cwd);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /^error \[TOOL_ERROR\] a tool's uncaught exception: uncaught in timer \(running: waits \(waitForAbort\)\): cancelling the run$/m,
    );
    expect(result.stderr).not.toContain("    at ");
    expect(result.stdout).toMatch(/^Run cancelled in /m);
    expect(result.stdout).toMatch(/finish what is left: +obelisk resume [\w-]+ --tools /);
    expect(await recordedStatus(cwd)).toBe("cancelled");
  });

  it("a promise a tool rejects and nobody handles: the same, and in json the run result document", async () => {
    const cwd = tempDir();
    const args = ["run", fixture("reject-floating-plan.json"), "--tools", tools, "--store", "sqlite:s.db"];
    const result = await obeliskSpawned([...args, "--format", "json"], cwd);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("error [TOOL_ERROR] a tool's unhandled rejection: floating rejection");
    expect(result.stderr).not.toContain("    at ");
    expect(parsed(result.stdout)).toMatchObject({
      status: "cancelled",
      calls: {
        rejecter: { status: "succeeded" },
        waits: { status: "cancelled", reason: expect.stringContaining("floating rejection") },
      },
    });
    expect(await recordedStatus(cwd)).toBe("cancelled");
  });
});

describe.concurrent("obelisk: a tool that calls process.exit during the run (review-runtime 29, 1)", () => {
  const args = ["run", fixture("exit-plan.json"), "--tools", tools];

  it("exit 1, not the tool's 0: one error line naming the call and how to resume, the run left interrupted", async () => {
    const cwd = tempDir();
    const result = await obeliskSpawned([...args, "--store", "sqlite:s.db"], cwd);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /^error \[TOOL_ERROR\] a tool called process\.exit\(0\) during the run \(running: quits \(exits\)\): the process ends here \(.*run [\w-]+ is left unfinished \(runs list shows it interrupted\): obelisk resume [\w-]+ --tools \S+misbehaving-tools\.mjs --store sqlite:s\.db finishes it\)$/m,
    );
    expect(result.stderr).not.toContain("    at ");
    expect(await recordedStatus(cwd)).toBe("interrupted");
  });

  it("in json, the error document is the one document on stdout", async () => {
    const cwd = tempDir();
    const result = await obeliskSpawned([...args, "--store", "memory", "--format", "json"], cwd);
    expect(result.code).toBe(1);
    expect(parsed(result.stdout)).toEqual({
      error: {
        code: "TOOL_ERROR",
        message: expect.stringMatching(
          /^a tool called process\.exit\(0\) during the run \(running: quits \(exits\)\)/,
        ),
        hint: expect.stringMatching(/must not end the process; run [\w-]+ is lost with the memory store$/),
      },
    });
  });
});

describe.concurrent("obelisk: before the run starts, a signal or an uncaught exception creates nothing (review-cli2 2, 4)", () => {
  const plan = fixture("wait-for-abort-plan.json");
  for (const [signal, killed] of [
    ["SIGTERM", "killed by SIGTERM"],
    ["SIGHUP", "killed by SIGHUP"],
  ] as const) {
    it(`${signal} while the tools module loads ends the process at once: no store, no run`, async () => {
      const cwd = tempDir();
      const args = ["run", plan, "--tools", fixture("slow-load-tools.mjs"), "--store", "sqlite:s.db"];
      const result = await obeliskSpawned(args, cwd, { when: "tools module loading", signal });
      expect(result.code).toBe(killed);
      expect(result.stdout).toBe("");
      expect(result.stderr).not.toContain("cancelling the run");
      expect(existsSync(`${cwd}/s.db`)).toBe(false);
    });
  }

  it("an exception thrown while the tools module loads: one error line, exit 1, no store, no resume hint", async () => {
    const cwd = tempDir();
    const args = ["run", plan, "--tools", fixture("throw-at-load-tools.mjs"), "--store", "sqlite:s.db"];
    const text = await obeliskSpawned(args, cwd);
    expect(text.code).toBe(1);
    expect(text.stderr).toBe("error [INTERNAL] uncaught exception: thrown while loading\n");
    expect(text.stdout).toBe("");
    const json = await obeliskSpawned([...args, "--format", "json"], cwd);
    expect(json.code).toBe(1);
    expect(parsed(json.stdout)).toEqual({
      error: { code: "INTERNAL", message: "uncaught exception: thrown while loading" },
    });
    expect(existsSync(`${cwd}/s.db`)).toBe(false);
  });

  it("the same in validate and schema: in json the error document on stdout", async () => {
    const cwd = tempDir();
    const tools = fixture("throw-at-load-tools.mjs");
    for (const args of [
      ["validate", plan, "--tools", tools],
      ["schema", "--tools", tools],
    ]) {
      const result = await obeliskSpawned([...args, "--format", "json"], cwd);
      expect(result.code).toBe(1);
      expect(parsed(result.stdout)).toEqual({
        error: { code: "INTERNAL", message: "uncaught exception: thrown while loading" },
      });
    }
  });

  it("a tool's exception right after its call succeeded: exit 1, whenever it comes", async () => {
    const cwd = tempDir();
    const args = ["run", fixture("throw-later-alone-plan.json"), "--tools", tools, "--store", "memory"];
    const result = await obeliskSpawned(args, cwd);
    expect(result.stderr).toMatch(/uncaught exception: uncaught in timer/);
    expect(result.code).toBe(1);
  });
});

describe.concurrent("obelisk: SIGTERM and SIGHUP cancel a run as Ctrl-C does (review-cli 3)", () => {
  for (const signal of ["SIGTERM", "SIGHUP"] as const) {
    it(`${signal}: the run is cancelled and recorded so, its result printed (text and json), exit 1`, async () => {
      for (const format of ["text", "json"]) {
        const cwd = tempDir();
        const args = ["run", fixture("wait-for-abort-plan.json"), "--tools", tools, "--store", "sqlite:s.db"];
        const result = await obeliskSpawned([...args, "--format", format], cwd, {
          when: "waitForAbort started",
          signal,
        });
        expect(result.code).toBe(1);
        expect(result.stderr).toContain(`interrupted (${signal}): cancelling the run`);
        if (format === "json") expect(parsed(result.stdout)).toMatchObject({ status: "cancelled" });
        else expect(result.stdout).toMatch(/^Run cancelled in /m);
        expect(await recordedStatus(cwd)).toBe("cancelled");
      }
    });
  }
});

describe.concurrent("obelisk: the command ends with the run, whatever a tool that ignores its signal does (review-cli 4)", () => {
  it("a call past its timeout fails the run, and the process exits without waiting for the tool", async () => {
    const cwd = tempDir();
    const args = ["run", fixture("stubborn-timeout-plan.json"), "--tools", tools, "--store", "memory"];
    const result = await obeliskSpawned([...args, "--format", "json"], cwd);
    expect(result.code).toBe(1);
    expect(parsed(result.stdout)).toMatchObject({
      status: "failed",
      calls: { slow: { status: "failed", error: { code: "TIMEOUT" } } },
    });
  });

  it("Ctrl-C cancels the run, and the process exits without waiting for the tool", async () => {
    const cwd = tempDir();
    const args = ["run", fixture("stubborn-plan.json"), "--tools", tools, "--store", "memory"];
    const result = await obeliskSpawned(args, cwd, { when: "stubborn started", signal: "SIGINT" });
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/^Run cancelled in /m);
  });
});

describe.concurrent("obelisk: a tool's message in text output (review-cli 11)", () => {
  it("control characters of an error message are shown escaped: one table row, no escape sequence reaches the terminal", async () => {
    const cwd = tempDir();
    const args = ["run", fixture("noisy-plan.json"), "--tools", tools, "--store", "memory"];
    const result = await obeliskSpawned(args, cwd);
    expect(result.code).toBe(1);
    expect(result.stdout).not.toContain("\x1b");
    expect(result.stdout).toMatch(
      /^ +loud +noisy +✗ failed .*TOOL_ERROR: line one\\nline two\\x1b\[31mred$/m,
    );
  });
});

describe.concurrent("obelisk: a tool's error code and message in the run table, the error list and runs show", () => {
  it("are shown escaped: no escape sequence reaches the terminal, one row per call", async () => {
    const cwd = tempDir();
    const plan = join(cwd, "plan.json");
    writeFileSync(plan, '[{ "_tool": "noisyCode", "_id": "coded" }]');
    const run = await obeliskSpawned(["run", plan, "--tools", tools, "--store", "sqlite:s.db"], cwd);
    expect(run.code).toBe(1);
    expect(run.stdout).not.toContain("\x1b");
    expect(run.stdout).toMatch(
      /^ +coded +noisyCode +✗ failed .*E\\x1b\[2J\\nX: bad\\x1b\]0;title\\x07 message$/m,
    );
    expect(run.stdout).toMatch(/^ +✗ coded: E\\x1b\[2J\\nX: bad/m);
    const runId = /run (\S+) · thread/.exec(run.stdout)?.[1] as string;
    const shown = await obeliskSpawned(["runs", "show", runId, "--store", "sqlite:s.db"], cwd);
    expect(shown.code).toBe(0);
    expect(shown.stdout).not.toContain("\x1b");
    expect(shown.stdout).toMatch(
      /^ +coded +noisyCode +✗ failed +1 +— E\\x1b\[2J\\nX: bad\\x1b\]0;title\\x07 message$/m,
    );
  });
});

describe.concurrent("obelisk: a thread id's control characters in text output (review-cli2 6)", () => {
  it("are escaped in every line: run and its what-next hints, state summary and set, runs list", async () => {
    const cwd = tempDir();
    const thread = "x\x1b[31mRED\nnl";
    const at = ["--thread", thread, "--store", "sqlite:s.db"];
    const outputs = [];
    const plan = fixture("shout-plan.json");
    const run = ["run", plan, "--tools", fixture("tools.js"), "--input", '{"word":"hi"}', ...at];
    for (const args of [
      run,
      ["state", "summary", ...at],
      ["state", "set", "--ref", "†state.approvals.a", "--value", "1", ...at],
      ["runs", "list", "--store", "sqlite:s.db"],
    ]) {
      const result = await obeliskSpawned(args, cwd);
      expect(result.code, args.join(" ")).toBe(0);
      outputs.push(result.stdout);
    }
    for (const stdout of outputs) {
      expect(stdout).not.toContain("\x1b");
      expect(stdout).not.toContain("RED\nnl");
      expect(stdout).toContain("x\\x1b[31mRED\\nnl");
    }
    expect(outputs[0]).toContain("obelisk state summary --thread $'x\\x1b[31mRED\\nnl'");
  });
});
