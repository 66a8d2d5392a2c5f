import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createEngine, createMemoryStore, defineTool, type Engine, ObeliskError } from "obelisk";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createService, type ServiceOptions } from "../examples/http-service/service.js";
import tools from "../examples/payments/tools.js";

const PAY = {
  type: "plan",
  plan: [
    {
      _tool: "processPayment",
      _id: "pay",
      orderId: "†input.orderId",
      amount: "†input.amount",
      card: "†input.card",
      _outputPath: "†state.receipt || †state.error",
    },
    { _tool: "confirmOrder", _id: "confirm", receipt: "†state.receipt", _outputPath: "†state.order" },
  ],
};
const REFUND = {
  type: "plan",
  plan: [
    {
      _tool: "issueRefund",
      _id: "refund",
      receipt: "†state.receipt",
      approval: "†state.approvals.refund",
      _outputPath: "†state.refund",
    },
  ],
};
const INPUT = { orderId: "A-1001", amount: 49.9, card: "4242-4242-4242-4242" };
const TOKEN = "approver-secret-for-tests";
const APPROVER = { authorization: `Bearer ${TOKEN}` };

const open: { server: Server; engine: Engine }[] = [];
afterEach(async () => {
  for (const { server, engine } of open.splice(0)) {
    await new Promise((done) => server.close(done));
    await engine.close();
  }
});

/** Starts the service on a free port; `call(method, path, body?)` answers `{ status, body }`. */
async function start(
  engine: Engine = createEngine({ tools, store: createMemoryStore() }),
  options: Partial<ServiceOptions> = {},
) {
  const server = createService(engine, { approverToken: TOKEN, ...options });
  open.push({ server, engine });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const call = async (
    method: string,
    path: string,
    body?: unknown,
    raw?: string,
    headers: Record<string, string> = {},
  ) => {
    const response = await fetch(base + path, {
      method,
      headers: {
        ...headers,
        ...(body === undefined && raw === undefined ? {} : { "content-type": "application/json" }),
      },
      ...(body === undefined && raw === undefined ? {} : { body: raw ?? JSON.stringify(body) }),
    });
    // biome-ignore lint/suspicious/noExplicitAny: a test reads the JSON answers freely
    return { status: response.status, body: (await response.json()) as any, headers: response.headers };
  };
  /** What an approver (a person with the token) does. */
  const asApprover = (method: string, path: string, body?: unknown) =>
    call(method, path, body, undefined, APPROVER);
  /** Validates `plan` and has an approver approve its hash on `threadId` with `input`; answers the hash. */
  const approved = async (plan: unknown, threadId: string, input?: object): Promise<string> => {
    const hash = (await call("POST", "/validate", { plan, threadId, input })).body.planHash as string;
    const approval = await asApprover("POST", "/approved-plans", { planHash: hash, threadId, input });
    expect(approval.status).toBe(200);
    return hash;
  };
  return { call, asApprover, approved, engine };
}

describe("examples/http-service: the approve-then-run workflow over HTTP", () => {
  it("validates, refuses to run unapproved or changed plans, then runs the approved hash", async () => {
    const { call, asApprover } = await start();
    const check = await call("POST", "/validate", { plan: PAY, input: INPUT });
    expect(check.status).toBe(200);
    expect(check.body).toMatchObject({ ok: true, diagnostics: [] });
    expect(check.body.planHash).toMatch(/^sha256:/);
    expect(check.body).not.toHaveProperty("compiled");

    const unapproved = await call("POST", "/threads/shop/runs", { plan: PAY, input: INPUT });
    expect(unapproved).toMatchObject({ status: 428, body: { code: "APPROVAL_REQUIRED" } });
    // the client cannot approve its own plan: the hash it sends back was approved by nobody
    const selfApproved = await call("POST", "/threads/shop/runs", {
      plan: PAY,
      input: INPUT,
      approvedHash: check.body.planHash,
    });
    expect(selfApproved).toMatchObject({ status: 403, body: { code: "PLAN_NOT_APPROVED" } });
    const approval = { planHash: check.body.planHash, threadId: "shop", input: INPUT };
    const asClient = await call("POST", "/approved-plans", approval);
    expect(asClient).toMatchObject({ status: 401, body: { code: "UNAUTHORIZED" } });
    expect(asClient.headers.get("www-authenticate")).toBe("Bearer");
    const wrongToken = await call("POST", "/approved-plans", approval, undefined, {
      authorization: "Bearer approver-secret-for-test",
    });
    expect(wrongToken.status).toBe(401);
    expect(
      await asApprover("POST", "/approved-plans", { ...approval, planHash: "sha256:nope" }),
    ).toMatchObject({
      status: 400,
      body: { code: "USAGE" },
    });
    expect(await asApprover("POST", "/approved-plans", approval)).toMatchObject({
      status: 200,
      body: { ok: true, threadId: "shop", input: INPUT },
    });

    const changed = { ...PAY, description: "changed after approval" };
    const refused = await call("POST", "/threads/shop/runs", {
      plan: changed,
      input: INPUT,
      approvedHash: check.body.planHash,
    });
    expect(refused).toMatchObject({ status: 403, body: { code: "PLAN_NOT_APPROVED" } });

    const run = await call("POST", "/threads/shop/runs", {
      plan: PAY,
      input: INPUT,
      approvedHash: check.body.planHash,
    });
    expect(run.status).toBe(200);
    expect(run.body).toMatchObject({
      status: "succeeded",
      planHash: check.body.planHash,
      calls: { pay: { status: "succeeded" }, confirm: { status: "succeeded" } },
    });
    const shown = await call("GET", `/runs/${run.body.runId}`);
    expect(shown.status).toBe(200);
    expect(shown.body.run).toMatchObject({ runId: run.body.runId, status: "succeeded" });
  });

  it("an approval binds the plan, the thread and the input: another amount, card or thread is refused", async () => {
    const { call, asApprover, approved } = await start();
    const hash = await approved(PAY, "shop", INPUT);
    // the hash is the same for every input of the plan: the service checks what the approver saw
    for (const [thread, input] of [
      ["shop", { ...INPUT, amount: 1_000_000 }],
      ["shop", { ...INPUT, card: "5555-0000-0000-0000" }],
      ["shop", { orderId: "A-1001", amount: 49.9 }],
      ["shop", undefined],
      ["other", INPUT],
    ] as const) {
      const refused = await call("POST", `/threads/${thread}/runs`, { plan: PAY, input, approvedHash: hash });
      expect(refused).toMatchObject({ status: 403, body: { code: "PLAN_NOT_APPROVED" } });
    }
    expect(await call("GET", "/threads/other/summary")).toMatchObject({ status: 200, body: { entries: [] } });
    // the approved input with its keys in another order is the same input
    const reordered = { card: INPUT.card, amount: INPUT.amount, orderId: INPUT.orderId };
    const run = await call("POST", "/threads/shop/runs", { plan: PAY, input: reordered, approvedHash: hash });
    expect(run.body).toMatchObject({ status: "succeeded", state: { receipt: { amount: 49.9 } } });
    // an approval names its thread
    expect(await asApprover("POST", "/approved-plans", { planHash: hash, input: INPUT })).toMatchObject({
      status: 400,
      body: { code: "USAGE", message: expect.stringContaining("threadId") },
    });
  });

  it("answers an invalid plan's diagnostics: 200 from validate, 422 from a run", async () => {
    const { call, asApprover } = await start();
    const broken = { type: "plan", plan: [{ _tool: "processPaymnt", _outputPath: "†state.x" }] };
    const check = await call("POST", "/validate", { plan: broken });
    expect(check.status).toBe(200);
    expect(check.body.ok).toBe(false);
    expect(check.body.diagnostics[0]).toMatchObject({ code: "TOOL_UNKNOWN", pointer: "/plan/0/_tool" });
    await asApprover("POST", "/approved-plans", { planHash: check.body.planHash, threadId: "t" });
    const run = await call("POST", "/threads/t/runs", { plan: broken, approvedHash: check.body.planHash });
    expect(run.status).toBe(422);
    expect(run.body.code).toBe("PLAN_INVALID");
    expect(run.body.data.diagnostics[0].code).toBe("TOOL_UNKNOWN");
  });

  it("holds a refund at its approval gate until a person approves it, and reads the result back", async () => {
    const { call, asApprover, approved } = await start();
    const pay = await approved(PAY, "shop", INPUT);
    await call("POST", "/threads/shop/runs", { plan: PAY, input: INPUT, approvedHash: pay });
    const refund = await approved(REFUND, "shop");

    const waiting = await call("POST", "/threads/shop/runs", { plan: REFUND, approvedHash: refund });
    expect(waiting.body.calls.refund.status).toBe("waiting");

    // the client cannot give the approval itself
    const forged = await call("PUT", "/threads/shop/approvals/refund", { value: { by: "attacker" } });
    expect(forged).toMatchObject({ status: 401, body: { code: "UNAUTHORIZED" } });
    expect(
      (await call("POST", "/threads/shop/runs", { plan: REFUND, approvedHash: refund })).body.calls.refund
        .status,
    ).toBe("waiting");
    const given = await asApprover("PUT", "/threads/shop/approvals/refund", { value: { by: "ops" } });
    expect(given).toMatchObject({ status: 200, body: { reference: "†state.approvals.refund" } });
    const done = await call("POST", "/threads/shop/runs", { plan: REFUND, approvedHash: refund });
    expect(done.body.calls.refund.status).toBe("succeeded");

    const value = await call("GET", `/threads/shop/value?ref=${encodeURIComponent("†state.refund")}`);
    expect(value).toMatchObject({
      status: 200,
      body: { found: true, value: { approvedBy: "ops", refunded: 49.9 } },
    });
    const summary = await call("GET", "/threads/shop/summary?lastN=2");
    expect(summary.status).toBe(200);
    expect(summary.body.entries.map((entry: { reference: string }) => entry.reference)).toEqual([
      "†state.refund",
      "†state.approvals.refund",
    ]);
    expect((await call("DELETE", "/threads/shop/approvals/refund")).status).toBe(401);
    const revoked = await asApprover("DELETE", "/threads/shop/approvals/refund");
    expect(revoked.body).toMatchObject({ removed: true });
    const gone = await call(
      "GET",
      `/threads/shop/value?ref=${encodeURIComponent("†state.approvals.refund")}`,
    );
    expect(gone).toMatchObject({ status: 410, body: { code: "REF_EVICTED" } });
  });

  it("answers 409 with Retry-After while a run holds the thread; the first run is not disturbed", async () => {
    let release: () => void = () => {};
    let entered: () => void = () => {};
    const inTool = new Promise<void>((done) => {
      entered = done;
    });
    const hold = defineTool({
      name: "hold",
      description: "Waits until the test releases it",
      run: () =>
        new Promise<string>((done) => {
          release = () => done("released");
          entered();
        }),
    });
    const { call, approved } = await start(
      createEngine({ tools: [hold], store: createMemoryStore(), lockWaitMs: 0 }),
    );
    const plan = { type: "plan", plan: [{ _tool: "hold", _outputPath: "†state.held" }] };
    const hash = await approved(plan, "t");
    const first = call("POST", "/threads/t/runs", { plan, approvedHash: hash });
    await inTool;
    const busy = await call("POST", "/threads/t/runs", { plan, approvedHash: hash });
    expect(busy.status).toBe(409);
    expect(busy.body).toMatchObject({ code: "THREAD_BUSY", data: { threadId: "t" } });
    expect(busy.headers.get("retry-after")).toBe("1");
    release();
    expect((await first).body).toMatchObject({ status: "succeeded", state: { held: "released" } });
  });

  it("refuses bad requests with a code and never a stack trace", async () => {
    const { call, asApprover } = await start(undefined, { maxBodyBytes: 64 });
    expect(await call("POST", "/validate", undefined, "{not json")).toMatchObject({
      status: 400,
      body: { code: "JSON_SYNTAX" },
    });
    // a key given twice is refused (JSON.parse would keep the last one without a word)
    expect(await call("POST", "/validate", undefined, '{"plan":[],"plan":[]}')).toMatchObject({
      status: 400,
      body: { code: "JSON_SYNTAX", message: expect.stringContaining("plan") },
    });
    expect(await call("POST", "/validate", [1, 2])).toMatchObject({ status: 400, body: { code: "USAGE" } });
    expect(await call("POST", "/validate", { plan: PAY })).toMatchObject({
      status: 413,
      body: { code: "BODY_TOO_LARGE" },
    });
    expect(await call("GET", "/runs/r-404")).toMatchObject({ status: 404, body: { code: "RUN_NOT_FOUND" } });
    expect(await call("GET", "/nowhere")).toMatchObject({ status: 404, body: { code: "NOT_FOUND" } });
    expect(await call("GET", "/threads/a.b/summary")).toMatchObject({ status: 400, body: { code: "USAGE" } });
    expect(await call("GET", "/threads/t/summary?lastN=-1")).toMatchObject({
      status: 400,
      body: { code: "USAGE" },
    });
    expect(await call("GET", "/threads/t/value")).toMatchObject({ status: 400, body: { code: "USAGE" } });
    expect(await call("GET", "/threads/t/value?ref=%E2%80%A0state.")).toMatchObject({
      status: 400,
      body: { code: "REF_SYNTAX" },
    });
    expect(await asApprover("PUT", "/threads/t/approvals/%E0%A4%A", { value: 1 })).toMatchObject({
      status: 400,
      body: { code: "USAGE" },
    });
    expect(await asApprover("PUT", "/threads/t/approvals/ok", {})).toMatchObject({
      status: 400,
      body: { code: "USAGE" },
    });
    expect(await call("GET", "//runs/x")).toMatchObject({ status: 400, body: { code: "USAGE" } });
    for (const answer of [await call("GET", "/runs/r-404"), await call("GET", "/nowhere")])
      expect(JSON.stringify(answer.body)).not.toContain("    at ");
  });

  it("answers a store's failure 500 without its details (paths, owners), which only the server logs", async () => {
    const store = createMemoryStore();
    const failing = new Proxy(store, {
      get(target, property, receiver) {
        if (property === "getRun")
          return () => {
            throw new ObeliskError("STORE_ERROR", "cannot read /srv/tenant-a/obelisk.db: disk I/O error", {
              data: { file: "/srv/tenant-a/obelisk.db", owner: 1001 },
            });
          };
        const value = Reflect.get(target, property, receiver);
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      const { call } = await start(createEngine({ tools, store: failing }));
      const answer = await call("GET", "/runs/r-1");
      expect(answer).toEqual({
        status: 500,
        body: { code: "INTERNAL", message: "internal error (logged on the server)" },
        headers: expect.anything(),
      });
      expect(logged).toHaveBeenCalledWith(expect.objectContaining({ code: "STORE_ERROR" }));
    } finally {
      logged.mockRestore();
    }
  });

  it("refuses to start without an approver token of at least 16 characters", async () => {
    const engine = createEngine({ tools, store: createMemoryStore() });
    expect(() => createService(engine, { approverToken: "short" })).toThrow(/approverToken/);
    expect(() => createService(engine, {} as ServiceOptions)).toThrow(/approverToken/);
    await engine.close();
  });
});
