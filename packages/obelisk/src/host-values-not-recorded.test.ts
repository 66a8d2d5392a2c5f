import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createMemoryStore, type StateStore } from "@obelisk/state";
import { createSqliteStore } from "@obelisk/state/sqlite";
import { afterEach, describe, expect, it } from "vitest";
import { deferred, until } from "./__fixtures__/deferred.js";
import { createEngine, defineTool, type RunEvent } from "./index.js";

const SECRET = "sk-live-SECRET-123";

let dir: string | undefined;
afterEach(() => {
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

/** Every byte of the store's files (the database and its write-ahead log). */
function filesBytes(folder: string): Buffer {
  return Buffer.concat(readdirSync(folder).map((name) => readFileSync(join(folder, name))));
}

const stores: [string, () => StateStore][] = [
  ["memory", () => createMemoryStore()],
  [
    "SQLite",
    () => {
      dir = mkdtempSync(join(tmpdir(), "obelisk-host-values-"));
      return createSqliteStore(join(dir, "state.db"));
    },
  ],
];

/** An engine whose tool keeps the arguments it received, with a `secrets` kind. */
function engineWith(store: StateStore, events: RunEvent[]) {
  const received: unknown[] = [];
  const callApi = defineTool({
    name: "callApi",
    input: { type: "object" },
    run: (args) => {
      received.push(args);
      return { ok: true };
    },
  });
  const engine = createEngine({
    tools: [callApi],
    kinds: [{ kind: "secrets", description: "API keys" }],
    store,
    onEvent: (event) => events.push(event),
  });
  return { engine, received };
}

const plan = [
  {
    _tool: "callApi",
    _id: "template",
    auth: "Bearer {†secrets.apiKey}",
    path: "/orders",
    _outputPath: "†state.a",
  },
  {
    _tool: "callApi",
    _id: "nested",
    headers: { auth: "†secrets.apiKey", accept: "json" },
    keys: ["†secrets", "†state.a.ok"],
    _outputPath: "†state.b",
  },
  // a stored output (†calls.stored), its record's parameters with it
  { _tool: "callApi", _id: "stored", key: "†secrets.apiKey || †state.none" },
];
const context = { secrets: { apiKey: SECRET } };

describe("host-kind values are not recorded nor sent in events (review s34 M2, decision 0063)", () => {
  it.each(stores)(
    "%s: the tool gets the value; records, events, results and the file show the plan's text",
    async (_, make) => {
      const store = make();
      const events: RunEvent[] = [];
      const { engine, received } = engineWith(store, events);
      const result = await engine.run(plan, { threadId: "t", context });
      expect(result.status).toBe("succeeded");
      expect(received).toEqual([
        { auth: `Bearer ${SECRET}`, path: "/orders" },
        { key: SECRET },
        { headers: { auth: SECRET, accept: "json" }, keys: [{ apiKey: SECRET }, true] },
      ]);
      const shown = await engine.runs.show(result.runId);
      const params = Object.fromEntries(shown.calls.map((record) => [record.callId, record.params]));
      expect(params).toEqual({
        template: { auth: "Bearer {†secrets.apiKey}", path: "/orders" },
        nested: { headers: { auth: "†secrets.apiKey", accept: "json" }, keys: ["†secrets", true] },
        stored: { key: "†secrets.apiKey || †state.none" },
      });
      const starts = events.filter((event) => event.type === "call-start");
      expect(starts.map((event) => event.params)).toEqual(
        expect.arrayContaining([{ auth: "Bearer {†secrets.apiKey}", path: "/orders" }]),
      );
      for (const seen of [events, result, shown, await engine.runs.list({ threadId: "t" })])
        expect(JSON.stringify(seen)).not.toContain(SECRET);
      // the satisfied check still covers the value (the hash is taken at dispatch, not from the record):
      // the same key is satisfied, a rotated one runs again
      const again = await engine.run(plan, { threadId: "t", context });
      expect(Object.values(again.calls).map((call) => call.status)).toEqual([
        "satisfied",
        "satisfied",
        "satisfied",
      ]);
      const rotated = await engine.run(plan, {
        threadId: "t",
        context: { secrets: { apiKey: "sk-live-NEW" } },
      });
      expect(Object.values(rotated.calls).map((call) => call.status)).toEqual([
        "succeeded",
        "succeeded",
        "succeeded",
      ]);
      expect(received).toHaveLength(6);
      expect(JSON.stringify(events)).not.toContain(SECRET);
      await engine.close();
      if (dir !== undefined) {
        const bytes = filesBytes(dir);
        expect(bytes.includes("Bearer {†secrets.apiKey}")).toBe(true);
        expect(bytes.includes(SECRET)).toBe(false);
      }
    },
  );

  it("a confirm hook gets the value; its modified parameters are recorded without it too", async () => {
    const seen: unknown[] = [];
    const callApi = defineTool({ name: "callApi", input: { type: "object" }, run: () => 1 });
    const engine = createEngine({
      tools: [callApi],
      kinds: [{ kind: "secrets" }],
      confirm: (request) => {
        seen.push(request.params);
        return { action: "modify", params: { ...request.params, path: "/safe" } };
      },
    });
    const result = await engine.run([plan[0] as object], { threadId: "t", context });
    expect(seen).toEqual([{ auth: `Bearer ${SECRET}`, path: "/orders" }]);
    const [record] = (await engine.runs.show(result.runId)).calls;
    expect(record).toMatchObject({
      params: { auth: "Bearer {†secrets.apiKey}", path: "/safe" },
      plannedParams: { auth: "Bearer {†secrets.apiKey}", path: "/orders" },
    });
    expect(JSON.stringify(record)).not.toContain(SECRET);
  });

  it("resume: a call reading a host kind and its own target is satisfied by its own record (shown forms compared)", async () => {
    let increments = 0;
    const gate = deferred<unknown>();
    const engine = createEngine({
      kinds: [{ kind: "secrets" }],
      tools: [
        { name: "slow", input: { type: "object" }, run: () => gate.promise.then(() => 0) },
        {
          name: "inc",
          input: { type: "object" },
          run: (args) => {
            increments++;
            return (args as { n: number }).n + 1;
          },
        },
      ],
    });
    const abort = new AbortController();
    const plan = [
      {
        _tool: "inc",
        _id: "inc",
        n: "†state.count || †input.zero",
        key: "†secrets.apiKey",
        _outputPath: "†state.count",
      },
      { _tool: "slow", _id: "slow" },
    ];
    const running = engine.run(plan, { threadId: "t", input: { zero: 0 }, context, signal: abort.signal });
    await until(() => increments === 1);
    abort.abort();
    const interrupted = await running;
    expect(interrupted.state).toEqual({ count: 1 });
    gate.resolve(undefined);
    const resumed = await engine.resume(interrupted.runId, { context });
    // the record shows the key's reference; compared with the resolved parameters, the call ran again
    expect(resumed.calls.inc?.status).toBe("satisfied");
    expect(resumed.state).toEqual({ count: 1 });
    expect(increments).toBe(1);
    await engine.close();
  });
});
