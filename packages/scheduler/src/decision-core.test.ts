import type { Reference } from "@obelisk/core";
import { describe, expect, it } from "vitest";
import { fakeCall, link } from "./__fixtures__/fake-call.js";
import { createClaims } from "./call-writers.js";
import { DecisionCore } from "./decision-core.js";

/** A core over a set of existing reference texts. */
function setup(existing: string[] = [], closed = true) {
  const present = new Set(existing);
  const core = new DecisionCore({ probe: { exists: (r: Reference) => present.has(r.text) }, closed });
  return { core, present };
}

describe("DecisionCore readiness", () => {
  it("dispatches calls without references at once and finishes when all settle", () => {
    const { core } = setup();
    expect(core.add([fakeCall("a", 0), fakeCall("b", 1)])).toEqual([
      { type: "dispatch", index: 0 },
      { type: "dispatch", index: 1 },
    ]);
    expect(core.settled(0, { status: "succeeded" })).toEqual([]);
    expect(core.settled(1, { status: "succeeded" })).toEqual([{ type: "finish" }]);
  });

  it("waits for every writer of a reference, then dispatches", () => {
    const { core, present } = setup();
    const calls = [
      fakeCall("w1", 0, { writes: [["†state.list"]], method: "push" }),
      fakeCall("w2", 1, { writes: [["†state.list"]], method: "push" }),
      fakeCall("r", 2, { reads: [[["†state.list"]]], writers: { "†state.list": [link("w1"), link("w2")] } }),
    ];
    expect(core.add(calls).map((e) => e.type)).toEqual(["dispatch", "dispatch"]);
    present.add("†state.list");
    expect(core.settled(1, { status: "succeeded", alternative: 0 })).toEqual([]);
    expect(core.settled(0, { status: "succeeded", alternative: 0 })).toEqual([
      { type: "dispatch", index: 2 },
    ]);
  });

  it("takes the first fallback operand without waiting for the second one's writers", () => {
    const { core } = setup(["†state.a"]);
    const calls = [
      fakeCall("slow", 0, { writes: [["†state.b"]] }),
      fakeCall("r", 1, { reads: [[["†state.a"], ["†state.b"]]], writers: { "†state.b": [link("slow")] } }),
    ];
    expect(core.add(calls)).toEqual([
      { type: "dispatch", index: 0 },
      { type: "dispatch", index: 1 },
    ]);
  });

  it("moves to the next fallback operand once the first one's writers settled without writing it", () => {
    const { core, present } = setup();
    const calls = [
      fakeCall("v", 0, { writes: [["†state.ok"], ["†state.bad"]] }),
      fakeCall("join", 1, {
        reads: [[["†state.ok"], ["†state.bad"]]],
        writers: { "†state.ok": [link("v", [0], true)], "†state.bad": [link("v", [1], true)] },
      }),
    ];
    expect(core.add(calls)).toEqual([{ type: "dispatch", index: 0 }]);
    present.add("†state.bad");
    expect(core.settled(0, { status: "succeeded", alternative: 1 })).toEqual([
      { type: "dispatch", index: 1 },
    ]);
  });

  it("blocks a call reading an untaken alternative and names the upstream call", () => {
    const { core, present } = setup();
    const calls = [
      fakeCall("v", 0, { writes: [["†state.ok"], ["†state.bad"]] }),
      fakeCall("r", 1, { reads: [[["†state.ok"]]], writers: { "†state.ok": [link("v", [0], true)] } }),
    ];
    core.add(calls);
    present.add("†state.bad");
    const [effect] = core.settled(0, { status: "succeeded", alternative: 1 });
    expect(effect).toMatchObject({ type: "unsatisfied", index: 1, status: "blocked" });
    expect(effect?.type === "unsatisfied" && effect.reason).toContain("v");
  });

  it("blocks dependents of a failed call; REF_UNRESOLVED when nothing writes the path", () => {
    const { core } = setup();
    const calls = [
      fakeCall("p", 0, { writes: [["†state.pay"]] }),
      fakeCall("c", 1, { reads: [[["†state.pay"]]], writers: { "†state.pay": [link("p")] } }),
      fakeCall("u", 2, { reads: [[["†input.missing"]]] }),
    ];
    expect(core.add(calls)).toEqual([
      { type: "dispatch", index: 0 },
      { type: "unsatisfied", index: 2, status: "failed", reason: expect.any(String), code: "REF_UNRESOLVED" },
    ]);
    expect(core.settled(0, { status: "failed" })[0]).toMatchObject({
      type: "unsatisfied",
      index: 1,
      status: "blocked",
    });
  });

  it("gates wait for every operand; a missing approval ends waiting", () => {
    const { core, present } = setup(["†state.x"]);
    const calls = [fakeCall("g", 0, { reads: [[["†state.x", "†state.approvals.ship"]]] })];
    expect(core.add(calls)[0]).toMatchObject({ type: "unsatisfied", status: "waiting" });
    const second = setup(["†state.x"]);
    second.present.add("†state.approvals.ship");
    expect(second.core.add(calls)).toEqual([{ type: "dispatch", index: 0 }]);
    expect(present.has("†state.x")).toBe(true);
  });

  it("propagates waiting to dependents of a waiting call", () => {
    const { core } = setup();
    core.add([
      fakeCall("w", 0, { writes: [["†state.a"]], reads: [[["†state.approvals.go"]]] }),
      fakeCall("d", 1, { reads: [[["†state.a"]]], writers: { "†state.a": [link("w")] } }),
    ]);
    expect(core.settled(0, { status: "waiting" })[0]).toMatchObject({ index: 1, status: "waiting" });
  });

  it("looks a †calls operand's writers up once, however often its reader waits and wakes", () => {
    const present = new Set<string>();
    const lookups: string[] = [];
    const core = new DecisionCore({
      probe: { exists: (r) => present.has(r.text) },
      writersOf: (call, reference) => {
        lookups.push(`${call.id} ${reference.text}`);
        return call.writers.get(reference.text) ?? [];
      },
    });
    // r reads †calls.a (written by a) and then †calls.b (b's, and c given as a writer too): it waits, wakes,
    // waits again; other operands' writers are the compiled operand's links (no lookup)
    const calls = [
      fakeCall("a", 0, { writes: [["†state.a"]] }),
      fakeCall("b", 1, { writes: [["†state.b"]], method: "push" }),
      fakeCall("c", 2, { writes: [["†state.b"]], method: "push" }),
      fakeCall("r", 3, {
        reads: [[["†calls.a"]], [["†calls.b"]]],
        writers: { "†calls.a": [link("a")], "†calls.b": [link("b"), link("c")] },
      }),
    ];
    expect(core.add(calls).map((e) => e.type)).toEqual(["dispatch", "dispatch", "dispatch"]);
    present.add("†calls.b");
    expect(core.settled(1, { status: "succeeded", alternative: 0 })).toEqual([]);
    present.add("†calls.a");
    expect(core.settled(0, { status: "succeeded", alternative: 0 })).toEqual([]);
    expect(core.settled(2, { status: "succeeded", alternative: 0 })).toEqual([
      { type: "dispatch", index: 3 },
    ]);
    expect(lookups).toEqual(["r †calls.a", "r †calls.b"]);
  });
});

describe("DecisionCore accumulation order", () => {
  it("commits accumulating writers of one path in plan order", () => {
    const { core } = setup();
    const calls = [0, 1, 2].map((i) => fakeCall(`p${i}`, i, { writes: [["†state.list"]], method: "push" }));
    core.add(calls);
    expect(core.completed(2, 0)).toEqual([]);
    expect(core.completed(1, 0)).toEqual([]);
    expect(core.completed(0, 0)).toEqual([{ type: "commit", index: 0 }]);
    expect(core.settled(0, { status: "succeeded", alternative: 0 })).toEqual([{ type: "commit", index: 1 }]);
    expect(core.settled(1, { status: "succeeded", alternative: 0 })).toEqual([{ type: "commit", index: 2 }]);
    expect(core.settled(2, { status: "succeeded", alternative: 0 })).toEqual([{ type: "finish" }]);
  });

  it("a writer that settles without writing releases the next one", () => {
    const { core } = setup();
    core.add([0, 1].map((i) => fakeCall(`p${i}`, i, { writes: [["†state.list"]], method: "push" })));
    expect(core.completed(1, 0)).toEqual([]);
    expect(core.settled(0, { status: "failed" })).toEqual([{ type: "commit", index: 1 }]);
  });

  it("fails a held writer an earlier writer of its path waits for, instead of hanging", () => {
    const { core } = setup();
    const calls = [
      fakeCall("a", 0, {
        reads: [[["†state.y"]]],
        writers: { "†state.y": [link("b")] },
        writes: [["†state.log"]],
        method: "push",
      }),
      fakeCall("b", 1, { writes: [["†state.log", "†state.y"]], method: "push" }),
      fakeCall("c", 2, { writes: [["†state.log"]], method: "push" }),
    ];
    expect(core.add(calls)).toEqual([
      { type: "dispatch", index: 1 },
      { type: "dispatch", index: 2 },
    ]);
    expect(core.completed(2, 0)).toEqual([]);
    const stalled = core.completed(1, 0);
    expect(stalled).toEqual([
      expect.objectContaining({
        type: "unsatisfied",
        index: 1,
        status: "failed",
        code: "OUTPUT_WRITE_FAILED",
      }),
    ]);
    expect(core.settled(1, { status: "failed" })).toEqual([
      expect.objectContaining({ type: "unsatisfied", index: 0, status: "blocked" }),
    ]);
    expect(core.settled(0, { status: "blocked" })).toEqual([{ type: "commit", index: 2 }]);
    expect(core.settled(2, { status: "succeeded", alternative: 0 })).toEqual([{ type: "finish" }]);
  });

  it("does not break a wait while work is in flight", () => {
    const { core } = setup();
    core.add([0, 1].map((i) => fakeCall(`p${i}`, i, { writes: [["†state.list"]], method: "push" })));
    expect(core.completed(1, 0)).toEqual([]);
    expect(core.completed(0, 0)).toEqual([{ type: "commit", index: 0 }]);
  });
});

describe("DecisionCore streaming", () => {
  it("parks unclaimed references until a writer claims them or the run closes", () => {
    const { core, present } = setup([], false);
    const claimsCore = new DecisionCore({
      probe: { exists: (r) => present.has(r.text) },
      closed: false,
      claims: (writer, reference) =>
        writer.outputPath?.alternatives[0]?.some((t) => t.text === reference.text)
          ? link(writer.id)
          : undefined,
    });
    expect(claimsCore.add([fakeCall("r", 0, { reads: [[["†state.a"]]] })])).toEqual([]);
    expect(claimsCore.add([fakeCall("w", 1, { writes: [["†state.a"]] })])).toEqual([
      { type: "dispatch", index: 1 },
    ]);
    present.add("†state.a");
    expect(claimsCore.settled(1, { status: "succeeded", alternative: 0 })).toEqual([
      { type: "dispatch", index: 0 },
    ]);
    expect(core.add([fakeCall("u", 0, { reads: [[["†state.zzz"]]] })])).toEqual([]);
    expect(core.close()[0]).toMatchObject({ type: "unsatisfied", status: "failed", code: "REF_UNRESOLVED" });
  });

  it("wakes a reader subscribed to a writer added later, once that writer settles", () => {
    const present = new Set<string>();
    const core = new DecisionCore({ probe: { exists: (r) => present.has(r.text) }, closed: false });
    const reader = fakeCall("r", 0, { reads: [[["†state.a"]]], writers: { "†state.a": [link("w")] } });
    expect(core.add([reader])).toEqual([]);
    expect(core.add([fakeCall("w", 1, { writes: [["†state.a"]] })])).toEqual([
      { type: "dispatch", index: 1 },
    ]);
    present.add("†state.a");
    expect(core.settled(1, { status: "succeeded", alternative: 0 })).toEqual([
      { type: "dispatch", index: 0 },
    ]);
  });

  it("offers a new writer only the streamed readers whose paths it overlaps (late claims stay linear)", () => {
    // n readers of †state.r.m<i> (nothing written there: they park, and their second operand is open), then
    // n writers of †state.r.w<i> (same top-level key, no overlap), then the n writers they wait for.
    const n = 400;
    const present = new Set<string>();
    const real = createClaims();
    let offers = 0;
    const core = new DecisionCore({
      probe: { exists: (r) => present.has(r.text) },
      closed: false,
      claims: (writer, reference) => {
        offers++;
        return real(writer, reference);
      },
    });
    for (let i = 0; i < n; i++)
      core.add([fakeCall(`m${i}`, i, { reads: [[[`†state.r.m${i}`]], [[`†state.r.n${i}`]]] })]);
    for (let i = 0; i < n; i++) core.add([fakeCall(`w${i}`, n + i, { writes: [[`†state.r.w${i}`]] })]);
    expect(offers).toBe(0);
    const dispatched: number[] = [];
    for (let i = 0; i < n; i++) {
      const effects = core.add([fakeCall(`x${i}`, 2 * n + i, { writes: [[`†state.r.m${i}`]] })]);
      dispatched.push(...effects.map((e) => (e.type === "dispatch" ? e.index : -1)));
    }
    // each writer of †state.r.m<i> is offered its one parked reader (and dispatched: it reads nothing)
    expect(offers).toBe(n);
    expect(dispatched).toEqual(Array.from({ length: n }, (_, i) => 2 * n + i));
    present.add("†state.r.m0");
    expect(core.settled(2 * n, { status: "succeeded", alternative: 0 })).toEqual([]);
    // reader 0 moved on to its second operand, which nothing writes yet: a writer of it wakes it
    expect(core.add([fakeCall("y0", 3 * n, { writes: [["†state.r.n0"]] })])).toEqual([
      { type: "dispatch", index: 3 * n },
    ]);
    present.add("†state.r.n0");
    expect(core.settled(3 * n, { status: "succeeded", alternative: 0 })).toEqual([
      { type: "dispatch", index: 0 },
    ]);
  });

  it("a writer of an index claims a streamed reader of a negative index (either may be the same item)", () => {
    const core = new DecisionCore({ probe: { exists: () => false }, closed: false, claims: createClaims() });
    expect(core.add([fakeCall("r", 0, { reads: [[["†state.list.-1.name"]]] })])).toEqual([]);
    expect(core.add([fakeCall("w", 1, { writes: [["†state.list.0.name"]] })])).toEqual([
      { type: "dispatch", index: 1 },
    ]);
    // the reader waits for w: closing the stream does not decide it
    expect(core.close()).toEqual([]);
  });

  it("lists undispatched calls for cancellation", () => {
    const { core } = setup();
    core.add([
      fakeCall("a", 0, { writes: [["†state.a"]] }),
      fakeCall("b", 1, { reads: [[["†state.a"]]], writers: { "†state.a": [link("a")] } }),
    ]);
    expect(core.undispatched()).toEqual([1]);
  });
});
