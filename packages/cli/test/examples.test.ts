import { describe, expect, it } from "vitest";
import { example, inProcess, inProcessJson, tempDir } from "./cli-harness.js";

type Json = Record<string, unknown>;

describe.concurrent("examples (each one runs, so none can rot)", { timeout: 180_000 }, () => {
  it("greeting: the smallest plan validates, runs and resumes", async () => {
    const cwd = tempDir();
    const args = [example("greeting", "plan.json"), "--tools", example("greeting", "tools.ts")];
    const input = ["--input", example("greeting", "input.json")];
    const valid = await inProcessJson(["validate", ...args, ...input], cwd);
    expect(valid.code).toBe(0);
    expect(valid.json).toMatchObject({
      ok: true,
      diagnostics: [],
      graph: { nodes: [{ tool: "greetUser" }], edges: [] },
    });
    expect(valid.json.planHash).toMatch(/^sha256:[0-9a-f]{64}$/);
    const run = await inProcess(["run", ...args, ...input, "--approved", String(valid.json.planHash)], cwd);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("Run succeeded");
    expect(run.stdout).toMatch(/greetUser\$\d+\s+greetUser\s+✓ succeeded\s+.*†state\.greeting/);
    const runs = await inProcessJson(["runs", "list"], cwd);
    const [first] = runs.json.runs as Json[];
    expect(first).toMatchObject({ status: "succeeded", threadId: "default" });
    const shown = await inProcessJson(["runs", "show", String(first?.runId)], cwd);
    expect(shown.code).toBe(0);
    expect(JSON.stringify(shown.json)).toContain(String(first?.runId));
    const resumed = await inProcessJson(
      ["resume", String(first?.runId), "--tools", example("greeting", "tools.ts")],
      cwd,
    );
    expect(resumed.code).toBe(0);
    expect(Object.values(resumed.json.calls as Json)).toEqual([
      expect.objectContaining({ status: "satisfied" }),
    ]);
    const unknown = await inProcessJson(["runs", "show", "no-such-run"], cwd);
    expect(unknown.code).toBe(2);
    expect(unknown.json).toMatchObject({ error: { code: "RUN_NOT_FOUND" } });
  });

  it("greeting: a plan whose hash differs from the approved one is refused", async () => {
    const cwd = tempDir();
    const args = ["run", example("greeting", "plan.json"), "--tools", example("greeting", "tools.ts")];
    const result = await inProcessJson(
      [...args, "--input", '{"userName":"Ada"}', "--approved", `sha256:${"0".repeat(64)}`],
      cwd,
    );
    expect(result.code).toBe(1);
    expect(result.json).toMatchObject({
      error: { code: "PLAN_NOT_APPROVED", hint: expect.stringContaining("approve the hash that prints") },
    });
  });

  it("data-analysis: 10,000 records become a report; the summary describes them without the data", async () => {
    const cwd = tempDir();
    const tools = example("data-analysis", "tools.ts");
    const args = [
      "run",
      example("data-analysis", "plan.json"),
      "--tools",
      tools,
      "--input",
      example("data-analysis", "input.json"),
    ];
    const run = await inProcess(args, cwd);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("Run succeeded");
    for (const id of ["fetch", "filter", "statsAll", "statsLarge", "report"])
      expect(run.stdout).toMatch(new RegExp(`${id}\\s+\\w+\\s+✓ succeeded`));
    const summary = await inProcess(["state", "summary"], cwd);
    expect(summary.code).toBe(0);
    expect(summary.stdout).toContain("†state.sales.all");
    expect(summary.stdout).toContain("10000");
    expect(summary.stdout.length).toBeLessThan(4500);
    const page = await inProcessJson(
      ["state", "get", "--ref", "†state.sales.all", "--offset", "100", "--limit", "5"],
      cwd,
    );
    expect(page.json).toMatchObject({ found: true, total: 10000, offset: 100 });
    const items = page.json.items as Json[];
    expect(items.map((item) => item.id)).toEqual([101, 102, 103, 104, 105]);
    const again = await inProcessJson(args, cwd);
    expect(
      Object.values(again.json.calls as Record<string, Json>).every((call) => call.status === "satisfied"),
    ).toBe(true);
    const keep = await inProcess(["state", "keep", "--last", "2"], cwd);
    expect(keep.code).toBe(0);
    const kept = await inProcessJson(["state", "summary"], cwd);
    expect(JSON.stringify(kept.json)).not.toContain("†state.sales.all");
    expect((await inProcess(["state", "reset"], cwd)).code).toBe(0);
    const empty = await inProcessJson(["state", "get", "--ref", "†state.report"], cwd);
    expect(empty.code).toBe(1);
    // After a reset the thread starts afresh: every call runs again (nothing is satisfied).
    const fresh = await inProcessJson(args, cwd);
    expect(
      Object.values(fresh.json.calls as Record<string, Json>).every((call) => call.status === "succeeded"),
    ).toBe(true);
  });

  it("data-analysis: graph as mermaid, dot and json", async () => {
    const cwd = tempDir();
    const args = [
      "graph",
      example("data-analysis", "plan.json"),
      "--tools",
      example("data-analysis", "tools.ts"),
      "--store",
      "memory",
      "--input",
      example("data-analysis", "input.json"),
    ];
    const mermaid = await inProcess(args, cwd);
    expect(mermaid.code).toBe(0);
    expect(mermaid.stdout).toMatch(/fetch[\s\S]*-->[\s\S]*filter/);
    const dot = await inProcess([...args, "--as", "dot"], cwd);
    expect(dot.stdout).toContain("digraph");
    const json = await inProcessJson([...args, "--as", "json"], cwd);
    expect(json.json).toMatchObject({ as: "json" });
    expect(JSON.stringify(json.json)).toContain("statsLarge");
  });

  it("verify-user: success path, chosen failure path and thrown error routed to the failure path", async () => {
    const cwd = tempDir();
    const base = ["run", example("verify-user", "plan.json"), "--tools", example("verify-user", "tools.ts")];
    const run = (input: string, thread: string) =>
      inProcessJson([...base, "--input", example("verify-user", input), "--thread", thread], cwd);
    const [verified, suspended, failed] = await Promise.all([
      run("input-verified.json", "a"),
      run("input-suspended.json", "b"),
      run("input-error.json", "c"),
    ]);
    expect(verified.code).toBe(0);
    expect(verified.json).toMatchObject({
      calls: {
        verify: { status: "succeeded", branch: 0 },
        welcome: { status: "succeeded" },
        ticket: { status: "blocked" },
      },
      state: {
        user: { verified: { name: "Ada Lovelace" } },
        welcome: { text: "Welcome back, Ada Lovelace." },
      },
    });
    expect(suspended.json).toMatchObject({
      calls: { verify: { branch: 1 }, welcome: { status: "blocked" }, ticket: { status: "succeeded" } },
      state: { user: { failed: { reason: "account suspended" } } },
    });
    expect(failed.code).toBe(0);
    expect(failed.json).toMatchObject({
      status: "succeeded",
      calls: {
        verify: { status: "succeeded", branch: 1, error: { code: "DIRECTORY_DOWN" } },
        ticket: { status: "succeeded" },
      },
      state: { user: { failed: { code: "DIRECTORY_DOWN", message: "the user directory is unreachable" } } },
    });
  });

  it("fan-out: && writes one summary to two places; push gathers parallel searches in plan order", async () => {
    const cwd = tempDir();
    const args = ["run", example("fan-out", "plan.json"), "--tools", example("fan-out", "tools.ts")];
    const result = await inProcessJson(
      [...args, "--input", example("fan-out", "input.json"), "--concurrency", "2"],
      cwd,
    );
    expect(result.code).toBe(0);
    const state = result.json.state as { summary: Json; archive: Json; results: Json[]; ranking: Json[] };
    expect(state.archive.latestSummary).toEqual(state.summary);
    expect(state.results.map((r) => r.query)).toEqual(["agents", "scheduling", "state"]);
    expect(state.ranking[0]).toEqual({ id: "doc-2", score: 2 });
  });

  it("payments: a declined card is routed to †state.error and blocks confirmOrder", async () => {
    const cwd = tempDir();
    const args = ["run", example("payments", "plan.json"), "--tools", example("payments", "tools.ts")];
    const result = await inProcessJson([...args, "--input", example("payments", "input-declined.json")], cwd);
    expect(result.code).toBe(0);
    expect(result.json).toMatchObject({
      calls: { pay: { branch: 1, error: { code: "CARD_DECLINED" } }, confirm: { status: "blocked" } },
      state: { error: { code: "CARD_DECLINED" } },
    });
    expect((result.json.state as Json).order).toBeUndefined();
  });

  it("payments: the refund waits for an approval given with state set", async () => {
    const cwd = tempDir();
    const tools = ["--tools", example("payments", "tools.ts")];
    const paid = await inProcessJson(
      ["run", example("payments", "plan.json"), ...tools, "--input", example("payments", "input-ok.json")],
      cwd,
    );
    expect(paid.json).toMatchObject({
      state: { receipt: { orderId: "A-1001" }, order: { status: "confirmed" } },
    });
    const refund = ["run", example("payments", "refund.json"), ...tools];
    const waiting = await inProcess(refund, cwd);
    expect(waiting.code).toBe(0);
    expect(waiting.stdout).toMatch(/refund\s+issueRefund\s+⏸ waiting/);
    // The run names the approval to give, for its thread.
    expect(waiting.stdout).toMatch(
      /^give the approval: +obelisk state set --ref †state\.approvals\.refund --value <json> --thread default$/m,
    );
    expect(waiting.stdout).toMatch(
      /^to refuse: leave it unset, or --value false where the tool takes the approval/m,
    );
    const set = await inProcess(
      ["state", "set", "--ref", "†state.approvals.refund", "--value", '{"by":"ops"}'],
      cwd,
    );
    expect(set.code).toBe(0);
    const done = await inProcessJson(refund, cwd);
    expect(done.code).toBe(0);
    expect(done.json).toMatchObject({
      calls: { refund: { status: "succeeded" } },
      state: { refund: { refunded: 49.9, approvedBy: "ops" } },
    });
  });

  it("schema-guided: French text is translated, English text is not; schema lists the tools", async () => {
    const cwd = tempDir();
    const tools = example("schema-guided", "tools.ts");
    const base = ["run", example("schema-guided", "plan.json"), "--tools", tools];
    const [french, english, schema] = await Promise.all([
      inProcessJson(
        [...base, "--input", example("schema-guided", "input-french.json"), "--thread", "fr"],
        cwd,
      ),
      inProcessJson(
        [...base, "--input", example("schema-guided", "input-english.json"), "--thread", "en"],
        cwd,
      ),
      inProcessJson(["schema", "--tools", tools], cwd),
    ]);
    expect(french.json).toMatchObject({
      calls: { route: { branch: 1 }, translate: { status: "succeeded" } },
      state: { translation: { from: "fr", text: "hello all the world the world is beautiful" } },
    });
    expect(english.json).toMatchObject({ calls: { route: { branch: 0 }, translate: { status: "blocked" } } });
    const text = JSON.stringify(schema.json);
    for (const name of ["detectLanguage", "isEnglish", "translateText"]) expect(text).toContain(name);
  });

  it("broken-plan: validate shows every diagnostic at once", async () => {
    const cwd = tempDir();
    const args = [
      "validate",
      example("broken-plan", "plan.json"),
      "--tools",
      example("broken-plan", "tools.ts"),
    ];
    const json = await inProcessJson(args, cwd);
    expect(json.code).toBe(1);
    const diagnostics = json.json.diagnostics as { code: string; pointer: string }[];
    const codes = new Set(diagnostics.map((d) => d.code));
    for (const code of [
      "TOOL_UNKNOWN",
      "PARAM_INVALID",
      "META_UNKNOWN",
      "PARAM_MISSING",
      "PARAM_UNKNOWN",
      "REF_KIND_UNKNOWN",
      "OUTPUT_PATH_READONLY",
      "REF_FORBIDDEN_SEGMENT",
      "OUTPUT_METHOD_INVALID",
      "CALL_ID_DUPLICATE",
      "REF_SUSPICIOUS",
      "CYCLE",
      "REF_TYPE_MISMATCH",
      "OUTPUT_CONFLICT",
      "OUTPUT_PATH_SYNTAX",
    ]) {
      expect(codes, code).toContain(code);
    }
    expect(diagnostics.find((d) => d.code === "TOOL_UNKNOWN")).toMatchObject({
      pointer: "/plan/0/_tool",
      hint: expect.stringContaining("greetUser"),
    });
    expect(diagnostics.find((d) => d.code === "PARAM_INVALID")).toMatchObject({ pointer: "/plan/1/name" });
    const text = await inProcess(args, cwd);
    expect(text.stdout).toMatch(/plan\.json:4:\d+: error TOOL_UNKNOWN/);
    expect(text.stdout).toContain("hint:");
    expect(text.stdout).toMatch(/✗ plan is invalid: \d+ errors/);
    const run = await inProcess(["run", ...args.slice(1)], cwd);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain("the plan was not run");
  });
});
