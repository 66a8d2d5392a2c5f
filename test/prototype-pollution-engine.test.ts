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

/** Look-alikes of forbidden names (Cyrillic letters, fullwidth underscores, zero-width joiner, case, space). */
const LOOK_ALIKE_KEYS = [
  "__prоto__",
  "__proto__\u200d",
  "\uff3f\uff3fproto\uff3f\uff3f",
  "cоnstructor",
  "prototypе",
  "__proto__ ",
  "__PROTO__",
];

describe.each(stores)("hostile names and look-alikes through the engine (%s)", (_name, makeStore) => {
  let engine: Engine;
  afterEach(async () => {
    await engine.close();
  });
  const fresh = () => {
    engine = createEngine({ tools: hostileTools([]) as never, store: makeStore() });
    return engine;
  };

  it("look-alike keys in output paths are ordinary own keys: the state holds exactly what was written", async () => {
    fresh();
    const plan = LOOK_ALIKE_KEYS.map((key, index) => ({
      _tool: "hostile",
      _id: `w${index}`,
      _outputPath: `†state[${JSON.stringify(key)}].inner`,
    }));
    const result = await engine.run({ type: "plan", plan });
    expect(result.status).toBe("succeeded");
    const state = await engine.store.readState("default" as never);
    expect(Object.keys(state).sort()).toEqual([...LOOK_ALIKE_KEYS].sort());
    for (const key of LOOK_ALIKE_KEYS) {
      const holder = (state as Record<string, unknown>)[key] as Record<string, unknown>;
      expect(Object.getPrototypeOf(holder)).toBe(Object.prototype);
      expect(Object.keys(holder)).toEqual(["inner"]);
      expect(JSON.stringify(holder.inner)).toBe(hostileJson);
      const read = await engine.get("default", `†state[${JSON.stringify(key)}].inner.ok`);
      expect(read).toMatchObject({ found: true, value: 3 });
    }
    // Reading them back by reference in a later plan gives the same data.
    const seen: unknown[] = [];
    engine = createEngine({ tools: hostileTools(seen) as never, store: engine.store });
    const probe = await engine.run({ _tool: "probe", v: `†state[${JSON.stringify(LOOK_ALIKE_KEYS[0])}]` });
    expect(probe.status).toBe("succeeded");
    expect(seen).toEqual([{ polluted: undefined, plainPrototype: true }]);
  });

  it.each([
    // JSON escapes inside a bracket segment decode to a forbidden name.
    ['†state["\\u005f_proto__"].polluted', "REF_FORBIDDEN_SEGMENT"],
    ['†state["__pro\\u0074o__"]', "REF_FORBIDDEN_SEGMENT"],
    ['†state["constructor"]["prototype"]', "REF_FORBIDDEN_SEGMENT"],
    ["†calls.__proto__", "REF_FORBIDDEN_SEGMENT"],
    // Look-alike daggers, dots and quotes are not the language: a syntax error, never a write.
    ["✝state.__proto__.polluted", "OUTPUT_PATH_SYNTAX"],
    ["‡state.x", "OUTPUT_PATH_SYNTAX"],
    ["†state．__proto__", "OUTPUT_PATH_SYNTAX"],
    ["†state[“__proto__”]", "OUTPUT_PATH_SYNTAX"],
    ["†state['__proto__']", "OUTPUT_PATH_SYNTAX"],
    ["†state.\u202e__proto__", "OUTPUT_PATH_SYNTAX"],
  ])("the output path %s is refused with %s at /_outputPath", async (outputPath, code) => {
    fresh();
    await engine.set("default", "†state.kept", 1);
    await expect(engine.run({ _tool: "hostile", _outputPath: outputPath })).rejects.toMatchObject({
      code: "PLAN_INVALID",
      data: {
        diagnostics: expect.arrayContaining([expect.objectContaining({ code, pointer: "/_outputPath" })]),
      },
    });
    expect(await engine.store.readState("default" as never)).toEqual({ kept: 1 });
  });

  it.each([
    '†state["\\u005f_proto__"]',
    "†calls.__proto__",
    "†calls.constructor",
    "$tool_output.__proto__",
    "hello {†state.__proto__}",
    'hello {†state["constructor"]}',
    "†state.x || †calls.__proto__.y",
  ])("the reference %s is refused with REF_FORBIDDEN_SEGMENT at /v", async (reference) => {
    fresh();
    await expect(engine.run({ _tool: "probe", v: reference })).rejects.toMatchObject({
      code: "PLAN_INVALID",
      data: {
        diagnostics: expect.arrayContaining([
          expect.objectContaining({ code: "REF_FORBIDDEN_SEGMENT", pointer: "/v" }),
        ]),
      },
    });
  });

  it("built-in names (toString, hasOwnProperty) are never found on state or input", async () => {
    fresh();
    for (const reference of ["†state.toString", "†state.hasOwnProperty", "†input.valueOf"]) {
      await expect(engine.run({ _tool: "probe", v: reference }, { input: {} })).rejects.toMatchObject({
        code: "PLAN_INVALID",
        data: { diagnostics: [expect.objectContaining({ code: "REF_UNRESOLVED", pointer: "/v" })] },
      });
    }
  });

  it("a look-alike dagger in a parameter is a literal string, passed as is", async () => {
    engine = createEngine({
      store: makeStore(),
      tools: [{ name: "echo", input: { type: "object" }, run: (args: unknown) => args }] as never,
    });
    const result = await engine.run({
      _tool: "echo",
      v: "✝state.__proto__.polluted",
      _outputPath: "†state.o",
    });
    expect(result.status).toBe("succeeded");
    expect(result.state).toEqual({ o: { v: "✝state.__proto__.polluted" } });
  });

  it('escaped "\\u005f\\u005fproto\\u005f\\u005f" keys in plan text and call ids named after built-ins stay data', async () => {
    fresh();
    const escaped = '{"\\u005f\\u005fproto\\u005f\\u005f":{"polluted":1},"ok":3}';
    const seen: unknown[] = [];
    engine = createEngine({ tools: hostileTools(seen) as never, store: engine.store });
    const literal = await engine.run(`{"type":"plan","plan":[{"_tool":"probe","_id":"p","v":${escaped}}]}`);
    expect(literal.status).toBe("succeeded");
    expect(seen).toEqual([{ polluted: undefined, plainPrototype: true }]);
    // (`constructor` is a forbidden segment, refused as a call id since B8; these are ordinary names)
    for (const id of ["toString", "hasOwnProperty", "valueOf", "__defineGetter__"]) {
      // (distinct parameters: an identical stored call would be `satisfied` by the earlier one)
      const result = await engine.run({ type: "plan", plan: [{ _tool: "hostile", _id: id, name: id }] });
      expect(result.status).toBe("succeeded");
      expect(Object.getPrototypeOf(result.calls)).toBe(Object.prototype);
      expect(Object.keys(result.calls)).toEqual([id]);
      expect(result.calls[id]?.status).toBe("succeeded");
    }
    const stored = await engine.get("default", "†calls.toString");
    expect(JSON.stringify("value" in stored ? stored.value : undefined)).toBe(hostileJson);
  });

  // B8 (fixed) — a call id that is a forbidden segment (`_id: "__proto__"`) was accepted by the compiler; the
  // run result was built with `calls[id] = …`, so `result.calls` got the call's outcome as its PROTOTYPE (no
  // own key) and the call was missing from the result; its output was stored under †calls.__proto__, a name
  // no reference may read. Now the compiler refuses `__proto__`, `prototype` and `constructor` as call ids
  // (CALL_ID_INVALID at /plan/N/_id) and `toRunResult` builds `calls` from entries (own data properties).
  it("B8: a call with _id __proto__ is refused, or reported as an own key of result.calls", async () => {
    fresh();
    let outcome: "refused" | "own key" | "lost";
    try {
      const result = await engine.run({ type: "plan", plan: [{ _tool: "hostile", _id: "__proto__" }] });
      outcome =
        Object.hasOwn(result.calls, "__proto__") && Object.getPrototypeOf(result.calls) === Object.prototype
          ? "own key"
          : "lost";
    } catch (error) {
      expect(error).toMatchObject({
        code: "PLAN_INVALID",
        data: { diagnostics: expect.arrayContaining([expect.objectContaining({ pointer: "/plan/0/_id" })]) },
      });
      outcome = "refused";
    }
    expect(outcome).not.toBe("lost");
  });
  it.each(["__proto__", "prototype", "constructor"])(
    "B8: _id %s is CALL_ID_INVALID at /plan/0/_id through validate and run, nothing written",
    async (id) => {
      fresh();
      const plan = { type: "plan", plan: [{ _tool: "hostile", _id: id, _outputPath: "†state.x" }] };
      const validation = await engine.validate(plan);
      expect(validation.diagnostics.map((d) => [d.code, d.pointer])).toEqual([
        ["CALL_ID_INVALID", "/plan/0/_id"],
      ]);
      await expect(engine.run(plan)).rejects.toMatchObject({ code: "PLAN_INVALID" });
      expect(await engine.get("default", "†state.x")).toMatchObject({ found: false });
    },
  );
});
