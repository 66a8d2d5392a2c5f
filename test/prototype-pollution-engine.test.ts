import { createEngine, createMemoryStore, type Engine, type StateStore } from "obelisk";
import { createSqliteStore } from "obelisk/sqlite";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { pollutionSigns, prototypeFingerprint } from "./support/prototype-guard.js";

const hostileJson = '{"__proto__":{"polluted":1},"constructor":{"prototype":{"polluted":2}},"ok":3}';

/** Tools returning hostile outputs, and a probe recording what a tool's arguments look like. */
function hostileTools(seen: unknown[]) {
  return [
    { name: "hostile", input: { type: "object" }, run: () => JSON.parse(hostileJson) },
    { name: "hostileList", input: { type: "object" }, run: () => [JSON.parse(hostileJson)] },
    {
      name: "probe",
      input: { type: "object" },
      run: (args: Record<string, unknown>) => {
        const v = args.v as Record<string, unknown>;
        seen.push({ polluted: v.polluted, plainPrototype: Object.getPrototypeOf(v) === Object.prototype });
        return null;
      },
    },
  ];
}

const stores: [string, () => StateStore][] = [
  ["memory", () => createMemoryStore()],
  ["sqlite", () => createSqliteStore(":memory:")],
];

let clean = "";
beforeAll(() => {
  clean = prototypeFingerprint();
});
afterEach(() => {
  expect(pollutionSigns()).toEqual([]);
  expect(prototypeFingerprint()).toBe(clean);
});

describe.each(stores)("prototype pollution through the engine (%s)", (_name, makeStore) => {
  let engine: Engine;
  const seen: unknown[] = [];
  afterEach(async () => {
    await engine.close();
  });
  const fresh = () => {
    engine = createEngine({ tools: hostileTools(seen) as never, store: makeStore() });
    return engine;
  };

  it.each([
    "†state.__proto__.polluted",
    "†state.constructor.prototype.polluted",
    '†state["__proto__"]',
    "†state.a && †state.__proto__.x",
    "†state.ok || †state.prototype",
  ])("the output path %s is refused before anything runs", async (outputPath) => {
    fresh();
    await expect(engine.run({ _tool: "hostile", _outputPath: outputPath })).rejects.toMatchObject({
      code: "PLAN_INVALID",
      data: {
        diagnostics: expect.arrayContaining([expect.objectContaining({ code: "REF_FORBIDDEN_SEGMENT" })]),
      },
    });
    expect(await engine.store.readState("default" as never)).toEqual({});
  });

  it("a reference through __proto__ is refused", async () => {
    fresh();
    await expect(engine.run({ _tool: "probe", v: '†state["__proto__"]' })).rejects.toMatchObject({
      code: "PLAN_INVALID",
    });
  });

  it.each(["set", "merge", "assign"])(
    "tool outputs with __proto__ keys are stored as own data (%s)",
    async (method) => {
      fresh();
      await engine.set("default", "†state.target", { old: true });
      const result = await engine.run({
        _tool: "hostile",
        _outputPath: "†state.target",
        _outputMethod: method,
      });
      expect(result.status).toBe("succeeded");
      const expected = method === "set" ? JSON.parse(hostileJson) : { old: true, ...JSON.parse(hostileJson) };
      const target = result.state.target as Record<string, unknown>;
      expect(Object.hasOwn(target, "__proto__")).toBe(true);
      expect(target.polluted).toBeUndefined();
      expect(JSON.stringify(result.state.target)).toBe(JSON.stringify(expected));
      const stored = await engine.get("default", "†state.target");
      expect(JSON.stringify("value" in stored ? stored.value : undefined)).toBe(
        JSON.stringify(result.state.target),
      );
      expect(Object.keys(result.state)).toEqual(["target"]);
    },
  );

  it("push/concat of hostile items and a stored call output keep the keys as data", async () => {
    fresh();
    const result = await engine.run({
      type: "plan",
      plan: [
        { _tool: "hostile", _id: "a", _outputPath: "†state.list", _outputMethod: "push" },
        { _tool: "hostileList", _id: "b", _outputPath: "†state.list", _outputMethod: "concat" },
        { _tool: "hostile", _id: "c" },
      ],
    });
    expect(result.status).toBe("succeeded");
    expect(JSON.stringify(result.state)).toBe(`{"list":[${hostileJson},${hostileJson}]}`);
    const output = await engine.get("default", "†calls.c");
    expect(JSON.stringify("value" in output ? output.value : undefined)).toBe(hostileJson);
  });

  it("a hostile value written with set() by reference is stored as data", async () => {
    fresh();
    await engine.set("default", "†state.approvals.x", JSON.parse(hostileJson));
    expect(JSON.stringify(await engine.store.readState("default" as never))).toBe(
      `{"approvals":{"x":${hostileJson}}}`,
    );
    await expect(engine.set("default", "†state.__proto__.polluted", true)).rejects.toBeDefined();
  });

  // B2 — packages/scheduler/src/resolve-params.ts, copyTree: `copy[key] = …` with key "__proto__" sets the
  // copy's prototype instead of an own key, so a plan literal {"__proto__":{"polluted":1}} reaches the tool
  // as an object whose prototype carries `polluted` (args.v.polluted === 1) and the call fails with
  // OUTPUT_NOT_JSON when its parameters are recorded. Expected: an own "__proto__" key, plain prototype.
  it("B2: a plan literal with a __proto__ key reaches the tool as own data", async () => {
    fresh();
    seen.length = 0;
    const result = await engine.run(`{"type":"plan","plan":[{"_tool":"probe","v":${hostileJson}}]}`);
    expect(seen).toEqual([{ polluted: undefined, plainPrototype: true }]);
    expect(result.status).toBe("succeeded");
  });

  it("B2 does not reach the global prototype, and the engine stays usable", async () => {
    fresh();
    await engine.run(`{"type":"plan","plan":[{"_tool":"probe","v":${hostileJson}}]}`);
    expect(pollutionSigns()).toEqual([]);
    const result = await engine.run({ _tool: "hostile", _outputPath: "†state.after" });
    expect(result.status).toBe("succeeded");
  });
});
