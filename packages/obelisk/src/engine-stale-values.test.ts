import { describe, expect, it } from "vitest";
import { branch, createEngine, defineTool } from "./index.js";

/** verify: outcome by input (ok → alternative 0, reject → 1, anything else throws → the last). */
const verify = defineTool({
  name: "verify",
  input: { type: "object", properties: { id: { type: "string" } }, required: ["id"] },
  run: (args) => {
    const id = String(args.id);
    if (id === "bad") return branch(1, { id, why: "rejected" });
    if (id === "err") throw new Error("verifier down");
    return { id };
  },
});
const mailed: string[] = [];
const mail = defineTool({
  name: "mail",
  input: { type: "object", properties: { user: {}, to: {} } },
  run: ({ user, to }) => {
    mailed.push(`${JSON.stringify(to)} about ${JSON.stringify(user)}`);
    return "sent";
  },
});
const echo = defineTool({
  name: "echo",
  input: { type: "object" },
  run: (args: { v?: unknown }) => args.v ?? null,
});
const fail = defineTool({
  name: "fail",
  input: { type: "object" },
  run: () => {
    throw new Error("down");
  },
});

const plan = [
  {
    _tool: "verify",
    _id: "verify",
    id: "†input.userId",
    _outputPath: "†state.user.verified || †state.user.rejected || †state.user.failed",
  },
  { _tool: "mail", _id: "mail", user: "†state.user.verified", to: "†input.userId" },
  { _tool: "echo", _id: "fallback", v: "†state.user.verified || †input.guest", _outputPath: "†state.picked" },
  { _tool: "echo", _id: "gate", v: "†state.user.verified && †input.guest", _outputPath: "†state.gated" },
];

describe("a value an earlier run left does not stand in for this plan's writer (SPEC §6, §7)", () => {
  it("an untaken alternative blocks its readers, and a fallback moves on, though the path holds an old value", async () => {
    mailed.length = 0;
    const engine = createEngine({ tools: [verify, mail, echo] });
    const first = await engine.run(plan, { threadId: "t", input: { userId: "u1", guest: "guest" } });
    expect(first.calls.mail?.status).toBe("succeeded");
    expect(first.state.picked).toEqual({ id: "u1" });
    for (const userId of ["bad", "err"]) {
      const later = await engine.run(plan, { threadId: "t", input: { userId, guest: "guest" } });
      expect(later.calls.verify?.status).toBe("succeeded");
      expect(later.calls.mail).toMatchObject({
        status: "blocked",
        reason: expect.stringContaining("verify took alternative"),
      });
      expect(later.calls.gate?.status).toBe("blocked");
      // the second time with the same fallback value it is satisfied by the first: either way it got "guest"
      expect(later.calls.fallback?.status).toBe(userId === "bad" ? "succeeded" : "satisfied");
      expect(later.state.picked).toBe("guest");
    }
    expect(mailed).toEqual(['"u1" about {"id":"u1"}']);
    await engine.close();
  });

  it("a failed writer blocks its readers though the path holds an old value; a path no call writes is read as stored", async () => {
    const engine = createEngine({ tools: [echo, fail] });
    await engine.set("t", "†state.x", 1);
    await engine.set("t", "†state.y", 2);
    const result = await engine.run(
      [
        { _tool: "fail", _id: "f", _outputPath: "†state.x" },
        { _tool: "echo", _id: "readsX", v: "†state.x", _outputPath: "†state.fromX" },
        { _tool: "echo", _id: "readsY", v: "†state.y", _outputPath: "†state.fromY" },
      ],
      { threadId: "t" },
    );
    expect(result.calls.readsX).toMatchObject({ status: "blocked", reason: "upstream call f failed" });
    expect(result.calls.readsY?.status).toBe("succeeded");
    expect(result.state).toMatchObject({ x: 1, fromY: 2 });
    expect(result.state.fromX).toBeUndefined();
    await engine.close();
  });
});
