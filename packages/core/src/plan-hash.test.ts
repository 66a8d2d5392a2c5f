import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { canonicalJson } from "./canonical-json.js";
import { normalizePlan } from "./normalize-plan.js";
import { parsePlanText } from "./parse-plan-text.js";
import type { PlanDocument } from "./plan-document.js";
import { planHash } from "./plan-hash.js";
import { sha256Hex } from "./sha256-hex.js";

const fixture = (name: string): string =>
  readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url), "utf8");
const documentOf = (value: unknown): PlanDocument => {
  const { document } = normalizePlan(value);
  if (document === undefined) throw new Error("not a plan");
  return document;
};

describe("sha256Hex", () => {
  it("hashes the UTF-8 bytes", () => {
    expect(sha256Hex("")).toBe("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    expect(sha256Hex("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    expect(sha256Hex("†")).toHaveLength(64);
  });
});

describe("planHash", () => {
  it("is sha256 of the canonical plan form", () => {
    const hash = planHash(documentOf({ calls: [{ _tool: "a" }] }));
    expect(hash).toBe(`sha256:${sha256Hex('{"plan":[{"_tool":"a"}],"type":"plan"}')}`);
  });

  it("is equal across forms, whitespace and key order", () => {
    const canonical = parsePlanText(fixture("plan-canonical.json")).document;
    const calls = parsePlanText(fixture("plan-calls.json")).document;
    expect(canonical && calls && planHash(canonical)).toBe(calls && planHash(calls));
    const call = { _tool: "a", x: [1, { b: 2, a: 1 }] };
    const hashes = [
      documentOf(call),
      documentOf([call]),
      documentOf({ calls: [call] }),
      documentOf({ type: "plan", plan: [{ x: [1, { a: 1, b: 2 }], _tool: "a" }], $schema: "ignored" }),
    ].map(planHash);
    expect(new Set(hashes).size).toBe(1);
  });

  it("changes when any call, the order or a top-level field changes", () => {
    const base = { type: "plan", plan: [{ _tool: "a", n: 1 }, { _tool: "b" }] };
    const hash = planHash(documentOf(base));
    const variants = [
      { ...base, plan: [{ _tool: "a", n: 2 }, { _tool: "b" }] },
      { ...base, plan: [{ _tool: "a", n: 1 }, { _tool: "c" }] },
      { ...base, plan: [{ _tool: "b" }, { _tool: "a", n: 1 }] },
      {
        ...base,
        plan: [
          { _tool: "a", n: 1 },
          { _tool: "b", _id: "x" },
        ],
      },
      { ...base, id: "p" },
      { ...base, description: "d" },
      { ...base, inputSchema: {} },
    ];
    for (const variant of variants) expect(planHash(documentOf(variant))).not.toBe(hash);
  });
});

describe("planHash in pieces", () => {
  const whole = (document: PlanDocument): string => {
    const canonical: Record<string, unknown> = { type: "plan", plan: document.calls.map((c) => c.value) };
    if (document.id !== undefined) canonical.id = document.id;
    if (document.description !== undefined) canonical.description = document.description;
    if (document.inputSchema !== undefined) canonical.inputSchema = document.inputSchema;
    return `sha256:${sha256Hex(canonicalJson(canonical))}`;
  };

  it("equals the hash of the whole canonical text, with and without id, description and input schema", () => {
    const calls = Array.from({ length: 300 }, (_, i) => ({
      _tool: "log",
      _id: `c${i}`,
      m: `{†state.s${i}} é😀`,
    }));
    const deep: Record<string, unknown> = {};
    let at = deep;
    for (let i = 0; i < 250; i++) {
      const next: Record<string, unknown> = {};
      at.z = next;
      at.a = i;
      at = next;
    }
    const raw = (values: unknown[], extra: Partial<PlanDocument> = {}): PlanDocument => ({
      form: "plan",
      calls: values.map((value, index) => ({ value, index, pointer: `/plan/${index}` })),
      source: null,
      ...extra,
    });
    const documents = [
      documentOf({ type: "plan", plan: calls }),
      documentOf({ type: "plan", plan: calls, id: "p1", description: "d\u2028\ud800" }),
      raw([{ _tool: "a", deep }, undefined], { inputSchema: { type: "object", b: 1, a: [2] } }),
      raw([], { id: "only" }),
      // long pieces holding index-like keys, a 250-level value and an undefined call
      raw([
        ...Array.from({ length: 150 }, (_, i) => ({ _tool: "t", "10": i, "2": [i], "": { b: 1, a: 2 } })),
        { _tool: "deep", deep },
        undefined,
      ]),
    ];
    for (const document of documents) expect(planHash(document)).toBe(whole(document));
    expect(new Set(documents.map(planHash)).size).toBe(documents.length);
  });
});
