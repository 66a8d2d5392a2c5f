import { Ajv2020 } from "ajv/dist/2020.js";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { exampleTools, specFormTool } from "./__fixtures__/tools.js";
import { compile } from "./compile.js";
import { planJsonSchema } from "./plan-json-schema.js";
import { createToolRegistry } from "./tool-registry.js";

const registry = createToolRegistry([...exampleTools, specFormTool], {
  implementations: { sendEmail: () => "sent" },
});
const validate = new Ajv2020({ strict: false }).compile(planJsonSchema(registry));

type Kind = "string" | "number" | "receipt";
/** Each tool's parameters and the kind of value each takes. */
const PARAMS: Readonly<Record<string, readonly (readonly [string, Kind])[]>> = {
  fetchUser: [["userId", "string"]],
  greetUser: [["userName", "string"]],
  verifyUser: [["userId", "string"]],
  generateSummary: [["text", "string"]],
  detectLanguage: [["text", "string"]],
  isEnglish: [["language", "string"]],
  translateText: [
    ["text", "string"],
    ["to", "string"],
  ],
  processPayment: [["amount", "number"]],
  confirmOrder: [["receipt", "receipt"]],
  add: [
    ["a", "number"],
    ["b", "number"],
  ],
  log: [["message", "string"]],
  setSummary: [["text", "string"]],
  approve: [],
  now: [],
  sendEmail: [
    ["to", "string"],
    ["body", "string"],
  ],
};

/** Values of each kind: literals, references, templates, fallbacks, gates, texts that only look like them. */
const TYPED: Readonly<Record<Kind, readonly unknown[]>> = {
  string: [
    "text",
    "",
    "†input.name",
    "†state.known",
    "hello {†input.name}",
    "†state.missing || †input.name",
    "see †state.known",
    "†state.o0",
    "†calls.c0",
    "$tool_output.c0",
    "†state.o0 && †state.o1",
  ],
  number: [
    3,
    2.5,
    -1,
    "†input.amount",
    "†state.count",
    "†state.missing || †state.count",
    "†state.o0",
    "†calls.c0",
  ],
  receipt: [{ id: "r1" }, "†state.o0", "†calls.c0", { id: "†input.name" }],
};
/** Any value: every JSON type, and each kind's values. */
const ANY: readonly unknown[] = [true, null, ["a", 1], { id: "r1" }, ...TYPED.string, ...TYPED.number];
/** Mostly a value of the parameter's kind, sometimes anything. */
const pick = (kind: Kind, n: number): unknown => {
  const pool = n % 5 === 0 ? ANY : TYPED[kind];
  return pool[Math.floor(n / 5) % pool.length];
};

/** Values for a latent call's `_output`. */
const value = fc.constantFrom<unknown>(
  "text",
  "",
  3,
  2.5,
  true,
  null,
  { id: "r1" },
  ["a", 1],
  "†input.name",
  "†input.amount",
  "†state.known",
  "†state.count",
  "{†state.known}",
  "hello {†input.name}",
  "†state.missing || †input.name",
  "†state.o0 && †state.o1",
  "†state.o0",
  "†state.o1.x",
  "†calls.c0",
  "$tool_output.c0",
  "see †state.known",
);
const outputPath = fc.constantFrom<string | undefined>(
  undefined,
  "†state.o{i}",
  "†state.o{i}.x || †state.f{i}",
  "†state.o{i} && †state.q{i}",
  "†state.mail.m{i}",
  "†state.user.summary",
  "†state.items",
);
const outputMethod = fc.constantFrom(
  undefined,
  undefined,
  undefined,
  "set",
  "push",
  "merge",
  "assign",
  "concat",
);

const callSpec = fc.record({
  tool: fc.constantFrom(...Object.keys(PARAMS)),
  values: fc.array(fc.nat(1000), { minLength: 3, maxLength: 3 }),
  keep: fc.array(
    fc.nat(5).map((n) => n > 0),
    { minLength: 3, maxLength: 3 },
  ),
  id: fc.boolean(),
  outputPath,
  outputMethod,
  output: fc.option(value, { nil: undefined }),
  retry: fc.option(fc.record({ attempts: fc.integer({ min: 1, max: 5 }), backoffMs: fc.nat(100) }), {
    nil: undefined,
  }),
  timeoutMs: fc.option(fc.integer({ min: 1, max: 10_000 }), { nil: undefined }),
  rerun: fc.option(fc.boolean(), { nil: undefined }),
});
type CallSpec = typeof callSpec extends fc.Arbitrary<infer T> ? T : never;

/** A call from its spec: the tool's parameters (some left out), meta-properties where chosen. */
function toCall(spec: CallSpec, index: number): Record<string, unknown> {
  const call: Record<string, unknown> = { _tool: spec.tool };
  if (spec.id) call._id = `c${index}`;
  (PARAMS[spec.tool] ?? []).forEach(([name, kind], k) => {
    if (spec.keep[k] !== false) call[name] = pick(kind, spec.values[k] ?? 0);
  });
  if (spec.outputPath !== undefined) call._outputPath = spec.outputPath.replaceAll("{i}", String(index));
  if (spec.outputMethod !== undefined) call._outputMethod = spec.outputMethod;
  if (spec.output !== undefined && spec.tool === "approve") call._output = spec.output;
  if (spec.retry !== undefined) call._retry = spec.retry;
  if (spec.timeoutMs !== undefined) call._timeoutMs = spec.timeoutMs;
  if (spec.rerun !== undefined) call._rerun = spec.rerun;
  return call;
}

const context = { input: { name: "Ada", amount: 5 }, state: { known: "k", count: 1, items: [] } };

describe("the plan JSON Schema accepts every plan the compiler accepts (issue 3)", () => {
  it("random plans over every example tool, with references, templates and meta-properties", () => {
    let accepted = 0;
    fc.assert(
      fc.property(fc.array(callSpec, { minLength: 1, maxLength: 5 }), (specs) => {
        const document = { type: "plan", plan: specs.map(toCall) };
        const result = compile(document, registry, { context });
        if (!result.ok) return;
        accepted += 1;
        const valid = validate(document);
        expect(valid ? [] : validate.errors?.map((e) => `${e.instancePath} ${e.message}`)).toEqual([]);
      }),
      { numRuns: 1500, seed: 36 },
    );
    // the property is not vacuous: many generated plans are valid
    expect(accepted).toBeGreaterThan(100);
  }, 30_000);
});
