import { timingSafeEqual } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { Engine, JsonObject, JsonValue } from "obelisk";
import { ObeliskError, parseJsonText } from "obelisk";

/** Options of the example service. */
export interface ServiceOptions {
  /**
   * The secret of the approvers (the people): `Authorization: Bearer <token>` on the routes that approve a
   * plan (its hash, with the input and thread it runs with) or give an approval. The client that sends plans
   * (the agent) never has it.
   */
  readonly approverToken: string;
  /** Largest request body, in bytes (default 1 MiB): a bigger one is answered 413 without being read. */
  readonly maxBodyBytes?: number;
}

/** A JSON answer: status and body. */
interface Answer {
  readonly status: number;
  readonly body: unknown;
}

/** An error answered with a status, a stable code, a message and (when there is one) a hint. */
class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly hint?: string,
  ) {
    super(message);
  }
}

/** HTTP status of each Obelisk error code a route can meet; any other code is a 500. */
const STATUS_OF: Readonly<Record<string, number>> = {
  USAGE: 400,
  JSON_SYNTAX: 400,
  REF_SYNTAX: 400,
  REF_KIND_UNKNOWN: 400,
  OUTPUT_PATH_READONLY: 400,
  PLAN_NOT_APPROVED: 403,
  RUN_NOT_FOUND: 404,
  REF_UNRESOLVED: 404,
  REF_EVICTED: 410,
  THREAD_BUSY: 409,
  PLAN_INVALID: 422,
  OUTPUT_SCHEMA_VIOLATION: 422,
  OUTPUT_WRITE_FAILED: 422,
  PLAN_LIMIT: 422,
  STORE_CLOSED: 503,
};

const NAME = /^[A-Za-z_][A-Za-z0-9_-]{0,63}$/;
const PLAN_HASH = /^sha256:[0-9a-f]{64}$/;
/** Approvals kept (the oldest go first); a real service keeps them in its database, with who and when. */
const MAX_APPROVED = 10_000;

/** What every request of one service shares. */
interface Service {
  readonly engine: Engine;
  readonly maxBodyBytes: number;
  readonly approverToken: Buffer;
  /** What an approver approved — plan hash, thread and input, as {@link approvalKey} — oldest first. */
  readonly approved: Set<string>;
}

/**
 * A JSON-over-HTTP front for an engine, with the approve-then-run workflow: a client (the agent) validates
 * a plan; an approver (a person, holding `approverToken`) approves its hash together with the thread and
 * the input it is to run with (the hash binds the plan only: a plan reading `†input.amount` has one hash
 * for every amount); the client runs it with that hash, thread and input, which the service checks an
 * approver approved together, and the engine checks the hash is the plan's. Approvers also give
 * approvals under `†state.approvals.<name>`. Anyone may read summaries, values and runs. Built on
 * `node:http` only; errors keep Obelisk's codes.
 */
export function createService(engine: Engine, options: ServiceOptions): Server {
  if (typeof options.approverToken !== "string" || options.approverToken.length < 16)
    throw new Error("createService needs an approverToken of at least 16 characters");
  const service: Service = {
    engine,
    maxBodyBytes: options.maxBodyBytes ?? 1024 * 1024,
    approverToken: Buffer.from(options.approverToken),
    approved: new Set(),
  };
  return createServer((request, response) => {
    handle(service, request, response).then(
      (answer) => send(response, answer),
      (error: unknown) => send(response, errorAnswer(error)),
    );
  });
}

async function handle(service: Service, request: IncomingMessage, response: ServerResponse): Promise<Answer> {
  const { engine, maxBodyBytes } = service;
  const url = requestUrl(request);
  const parts = url.pathname
    .split("/")
    .filter((part) => part !== "")
    .map(decodePart);
  const method = request.method ?? "GET";
  const route = `${method} /${parts.map((part, i) => (i % 2 === 1 ? ":" : part)).join("/")}`;
  const [, first, , second] = parts;
  switch (route) {
    case "POST /validate": {
      const body = await objectBody(request, maxBodyBytes);
      const check = await engine.validate(body.plan as JsonValue, {
        ...optionalString(body, "threadId"),
        ...optionalObject(body, "input"),
      });
      const { compiled: _compiled, ...answer } = check;
      return { status: 200, body: answer };
    }
    case "POST /approved-plans": {
      approver(service, request);
      const body = await objectBody(request, maxBodyBytes);
      if (typeof body.planHash !== "string" || !PLAN_HASH.test(body.planHash))
        throw new HttpError(
          400,
          "USAGE",
          "planHash must be a plan hash",
          "POST /validate gives it: sha256:<64 hex>",
        );
      // what the person approved: this plan, on this thread, with this input (none: {}, as the run gets)
      if (typeof body.threadId !== "string")
        throw new HttpError(
          400,
          "USAGE",
          "threadId must be the thread the plan is approved to run on",
          'send {"planHash": "sha256:…", "threadId": "shop", "input": {…}}: the hash binds the plan, not its thread or input',
        );
      const threadId = thread(body.threadId);
      const input = inputOf(body);
      const key = approvalKey(body.planHash, threadId, input);
      service.approved.delete(key);
      service.approved.add(key);
      if (service.approved.size > MAX_APPROVED)
        service.approved.delete(service.approved.values().next().value as string);
      return { status: 200, body: { ok: true, planHash: body.planHash, threadId, input } };
    }
    case "POST /threads/:/runs": {
      const body = await objectBody(request, maxBodyBytes);
      // The workflow this service offers: nothing runs without an approver's approval of its exact hash,
      // on this thread, with this input.
      if (typeof body.approvedHash !== "string")
        throw new HttpError(
          428,
          "APPROVAL_REQUIRED",
          "a run needs approvedHash",
          "POST /validate gives the plan's hash; an approver approves it with POST /approved-plans",
        );
      const threadId = thread(first);
      const input = inputOf(body);
      if (!service.approved.has(approvalKey(body.approvedHash, threadId, input)))
        throw new HttpError(
          403,
          "PLAN_NOT_APPROVED",
          `no approver approved ${body.approvedHash} on thread ${threadId} with this input`,
          "an approver approves the plan with the thread and input it runs with: POST /approved-plans { planHash, threadId, input }",
        );
      // A client that goes away cancels its run (its calls get the abort); the thread is released.
      const controller = new AbortController();
      response.once("close", () => {
        if (!response.writableFinished) controller.abort(new Error("the client went away"));
      });
      const result = await engine.run(body.plan as JsonValue, {
        threadId,
        approvedHash: body.approvedHash,
        signal: controller.signal,
        ...optionalObject(body, "input"),
      });
      return { status: 200, body: result };
    }
    case "GET /threads/:/summary": {
      const lastN = url.searchParams.get("lastN");
      const summary = await engine.summarize(thread(first), {
        format: "json",
        ...(lastN === null ? {} : { lastN: wholeNumber(lastN, "lastN") }),
      });
      return { status: 200, body: summary };
    }
    case "GET /threads/:/value": {
      const reference = url.searchParams.get("ref");
      if (reference === null)
        throw new HttpError(400, "USAGE", "missing ?ref=", "for example ?ref=†state.report");
      const offset = url.searchParams.get("offset");
      const limit = url.searchParams.get("limit");
      const got = await engine.get(thread(first), reference, {
        ...(offset === null ? {} : { offset: wholeNumber(offset, "offset") }),
        ...(limit === null ? {} : { limit: wholeNumber(limit, "limit") }),
      });
      if (!got.found) throw new HttpError(404, "REF_UNRESOLVED", `nothing is stored at ${reference}`);
      return { status: 200, body: got };
    }
    case "PUT /threads/:/approvals/:": {
      approver(service, request);
      const body = await objectBody(request, maxBodyBytes);
      if (!("value" in body))
        throw new HttpError(400, "USAGE", "missing value", 'send {"value": {"by": "ops"}}');
      const reference = `†state.approvals.${approvalName(second)}`;
      await engine.set(thread(first), reference, body.value as JsonValue, {
        ...optionalString(body, "description"),
      });
      return { status: 200, body: { ok: true, reference } };
    }
    case "DELETE /threads/:/approvals/:": {
      approver(service, request);
      const removed = await engine.unset(thread(first), `†state.approvals.${approvalName(second)}`);
      return { status: 200, body: removed };
    }
    case "GET /runs/:":
      return { status: 200, body: await engine.runs.show(first as string) };
    case "POST /runs/:/resume":
      return { status: 200, body: await engine.resume(first as string) };
    default:
      throw new HttpError(404, "NOT_FOUND", `no route ${method} ${url.pathname}`);
  }
}

/**
 * One approval's key: the plan hash, the thread and the input in a canonical JSON text (object keys sorted,
 * so the same input sent with its keys in another order is the same approval).
 */
function approvalKey(planHash: string, threadId: string, input: JsonValue): string {
  return JSON.stringify([planHash, threadId, canonical(input)]);
}

/** A copy of `value` with every object's keys in sorted order (depth is bounded by the body reader). */
function canonical(value: JsonValue): JsonValue {
  if (Array.isArray(value)) return value.map(canonical);
  if (typeof value !== "object" || value === null) return value;
  const object = value as JsonObject;
  return Object.fromEntries(
    Object.keys(object)
      .sort()
      .map((key) => [key, canonical(object[key] as JsonValue)]),
  );
}

/** The request's URL; a target that is no path (`//`, `http://x`) is a 400. */
function requestUrl(request: IncomingMessage): URL {
  const target = request.url ?? "/";
  if (!target.startsWith("/") || target.startsWith("//"))
    throw new HttpError(400, "USAGE", `malformed request target ${JSON.stringify(target.slice(0, 100))}`);
  try {
    return new URL(target, "http://service.invalid");
  } catch {
    throw new HttpError(400, "USAGE", `malformed request target ${JSON.stringify(target.slice(0, 100))}`);
  }
}

/** Refuses a request without the approvers' token (401), compared in constant time. */
function approver(service: Service, request: IncomingMessage): void {
  const header = request.headers.authorization ?? "";
  const given = Buffer.from(header.startsWith("Bearer ") ? header.slice(7) : "");
  const expected = service.approverToken;
  if (given.length !== expected.length || !timingSafeEqual(given, expected))
    throw new HttpError(
      401,
      "UNAUTHORIZED",
      "only an approver may do this",
      "send Authorization: Bearer <approver token>",
    );
}

function decodePart(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    throw new HttpError(400, "USAGE", `malformed path segment ${JSON.stringify(part)}`);
  }
}

/** Reads a JSON object body of at most `maxBodyBytes`. */
async function objectBody(request: IncomingMessage, maxBodyBytes: number): Promise<Record<string, unknown>> {
  const declared = Number(request.headers["content-length"] ?? 0);
  if (declared > maxBodyBytes) throw tooLarge(maxBodyBytes);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBodyBytes) throw tooLarge(maxBodyBytes);
    chunks.push(chunk);
  }
  // as strict as the CLI reads JSON: a key given twice is refused, not silently the last one (the hints
  // name the request body: "the request body must be strict JSON (no comments)")
  const read = parseJsonText(Buffer.concat(chunks).toString("utf8"), { subject: "request body" });
  if (!read.ok) {
    const first = read.diagnostics[0];
    throw new HttpError(
      400,
      first?.code ?? "JSON_SYNTAX",
      `the body is not JSON: ${first?.message}`,
      first?.hint,
    );
  }
  const body: unknown = read.value;
  if (typeof body !== "object" || body === null || Array.isArray(body))
    throw new HttpError(400, "USAGE", "the body must be a JSON object");
  return body as Record<string, unknown>;
}

function tooLarge(maxBodyBytes: number): HttpError {
  return new HttpError(413, "BODY_TOO_LARGE", `the body is larger than ${maxBodyBytes} bytes`);
}

function thread(id: string | undefined): string {
  if (id === undefined || !NAME.test(id))
    throw new HttpError(400, "USAGE", `invalid thread id ${JSON.stringify(id)}`, "letters, digits, _ and -");
  return id;
}

function approvalName(name: string | undefined): string {
  if (name === undefined || !NAME.test(name))
    throw new HttpError(
      400,
      "USAGE",
      `invalid approval name ${JSON.stringify(name)}`,
      "letters, digits, _ and -",
    );
  return name;
}

function wholeNumber(text: string, name: string): number {
  if (!/^\d{1,9}$/.test(text))
    throw new HttpError(400, "USAGE", `${name} must be a whole number, not ${JSON.stringify(text)}`);
  return Number(text);
}

function optionalString(body: Record<string, unknown>, key: string): Record<string, string> {
  const value = body[key];
  if (value === undefined) return {};
  if (typeof value !== "string") throw new HttpError(400, "USAGE", `${key} must be a string`);
  return { [key]: value };
}

/** The body's `input` (a JSON object), `{}` without one: the input a run gets when none is sent. */
function inputOf(body: Record<string, unknown>): JsonObject {
  return (optionalObject(body, "input").input as JsonObject | undefined) ?? {};
}

function optionalObject(body: Record<string, unknown>, key: string): Record<string, JsonValue> {
  const value = body[key];
  if (value === undefined) return {};
  if (typeof value !== "object" || value === null || Array.isArray(value))
    throw new HttpError(400, "USAGE", `${key} must be a JSON object`);
  return { [key]: value as JsonValue };
}

/** The answer for a thrown error: Obelisk's code, message, hint and data; never a stack trace. */
function errorAnswer(error: unknown): Answer {
  if (error instanceof HttpError)
    return { status: error.status, body: { code: error.code, message: error.message, hint: error.hint } };
  const status = ObeliskError.is(error) ? (STATUS_OF[error.code] ?? 500) : 500;
  if (status !== 500 && ObeliskError.is(error))
    return {
      status,
      body: { code: error.code, message: error.message, hint: error.hint, data: error.data },
    };
  // a store's or an engine's failure may name files, users and modes: only the server's log has them
  console.error(error);
  return { status: 500, body: { code: "INTERNAL", message: "internal error (logged on the server)" } };
}

function send(response: ServerResponse, answer: Answer): void {
  if (response.headersSent || response.destroyed) return;
  const text = JSON.stringify(answer.body);
  response.writeHead(answer.status, {
    "content-type": "application/json; charset=utf-8",
    "content-length": Buffer.byteLength(text),
    ...(answer.status === 409 ? { "retry-after": "1" } : {}),
    ...(answer.status === 401 ? { "www-authenticate": "Bearer" } : {}),
  });
  response.end(text);
}
