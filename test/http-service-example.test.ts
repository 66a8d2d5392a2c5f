import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createEngine, createMemoryStore, defineTool, type Engine } from "obelisk";
import { afterEach, describe, expect, it } from "vitest";
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
  options?: ServiceOptions,
) {
  const server = createService(engine, options);
  open.push({ server, engine });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const call = async (method: string, path: string, body?: unknown, raw?: string) => {
    const response = await fetch(base + path, {
      method,
      ...(body === undefined && raw === undefined
        ? {}
        : { body: raw ?? JSON.stringify(body), headers: { "content-type": "application/json" } }),
    });
    // biome-ignore lint/suspicious/noExplicitAny: a test reads the JSON answers freely
    return { status: response.status, body: (await response.json()) as any, headers: response.headers };
  };
  return { call, engine };
}

describe("examples/http-service: the approve-then-run workflow over HTTP", () => {
  it("validates, refuses to run unapproved or changed plans, then runs the approved hash", async () => {
    const { call } = await start();
    const check = await call("POST", "/validate", { plan: PAY, input: INPUT });
    expect(check.status).toBe(200);
    expect(check.body).toMatchObject({ ok: true, diagnostics: [] });
    expect(check.body.planHash).toMatch(/^sha256:/);
    expect(check.body).not.toHaveProperty("compiled");

    const unapproved = await call("POST", "/threads/shop/runs", { plan: PAY, input: INPUT });
    expect(unapproved).toMatchObject({ status: 428, body: { code: "APPROVAL_REQUIRED" } });

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

  it("answers an invalid plan's diagnostics: 200 from validate, 422 from a run", async () => {
    const { call } = await start();
    const broken = { type: "plan", plan: [{ _tool: "processPaymnt", _outputPath: "†state.x" }] };
    const check = await call("POST", "/validate", { plan: broken });
    expect(check.status).toBe(200);
    expect(check.body.ok).toBe(false);
    expect(check.body.diagnostics[0]).toMatchObject({ code: "TOOL_UNKNOWN", pointer: "/plan/0/_tool" });
    const run = await call("POST", "/threads/t/runs", { plan: broken, approvedHash: check.body.planHash });
    expect(run.status).toBe(422);
    expect(run.body.code).toBe("PLAN_INVALID");
    expect(run.body.data.diagnostics[0].code).toBe("TOOL_UNKNOWN");
  });

  it("holds a refund at its approval gate until a person approves it, and reads the result back", async () => {
    const { call } = await start();
    const pay = await call("POST", "/validate", { plan: PAY, input: INPUT });
    await call("POST", "/threads/shop/runs", { plan: PAY, input: INPUT, approvedHash: pay.body.planHash });
    const refund = (await call("POST", "/validate", { plan: REFUND, threadId: "shop" })).body.planHash;

    const waiting = await call("POST", "/threads/shop/runs", { plan: REFUND, approvedHash: refund });
    expect(waiting.body.calls.refund.status).toBe("waiting");

    const approved = await call("PUT", "/threads/shop/approvals/refund", { value: { by: "ops" } });
    expect(approved).toMatchObject({ status: 200, body: { reference: "†state.approvals.refund" } });
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
    const revoked = await call("DELETE", "/threads/shop/approvals/refund");
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
    const { call } = await start(createEngine({ tools: [hold], store: createMemoryStore(), lockWaitMs: 0 }));
    const plan = { type: "plan", plan: [{ _tool: "hold", _outputPath: "†state.held" }] };
    const hash = (await call("POST", "/validate", { plan })).body.planHash;
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
    const { call } = await start(undefined, { maxBodyBytes: 64 });
    expect(await call("POST", "/validate", undefined, "{not json")).toMatchObject({
      status: 400,
      body: { code: "JSON_SYNTAX" },
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
    expect(await call("PUT", "/threads/t/approvals/%E0%A4%A", { value: 1 })).toMatchObject({
      status: 400,
      body: { code: "USAGE" },
    });
    expect(await call("PUT", "/threads/t/approvals/ok", {})).toMatchObject({
      status: 400,
      body: { code: "USAGE" },
    });
    for (const answer of [await call("GET", "/runs/r-404"), await call("GET", "/nowhere")])
      expect(JSON.stringify(answer.body)).not.toContain("    at ");
  });
});
