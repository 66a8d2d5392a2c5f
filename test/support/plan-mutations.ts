import fc from "fast-check";
import type { PlanJson } from "./plan-generators.js";

/** The string-length limit the fuzz suites compile with (small, so a "huge string" case stays cheap). */
export const FUZZ_MAX_STRING = 10_000;

/** The kinds of single mutation applied to a valid plan. */
const MUTATION_KINDS = [
  "wrong-type",
  "unknown-tool",
  "broken-reference",
  "malformed-reference",
  "cycle",
  "long-string",
  "deep-nesting",
  "unicode",
  "proto-key",
  "forbidden-segment",
  "random-value",
  "delete-key",
  "unknown-meta",
  "duplicate-id",
  "bad-output-path",
  "bad-method",
  "input-schema",
] as const;

/** One mutation kind. */
type MutationKind = (typeof MUTATION_KINDS)[number];

/** Random material a mutation draws from. */
export interface MutationSeed {
  readonly kind: MutationKind;
  readonly call: number;
  readonly pick: number;
  readonly value: unknown;
  readonly text: string;
}

/** Arbitrary mutation seeds. */
export const mutationSeed: fc.Arbitrary<MutationSeed> = fc.record({
  kind: fc.constantFrom(...MUTATION_KINDS),
  call: fc.nat(),
  pick: fc.nat(),
  value: fc.jsonValue({ maxDepth: 3 }),
  text: fc.string({ unit: "grapheme", maxLength: 12 }),
});

const HOSTILE_SEGMENTS = [
  "†state.__proto__.polluted",
  "†state.constructor.prototype.polluted",
  '†state["__proto__"].polluted',
  "†input.prototype",
  '†state["constructor"]',
  "†state.\u0433__proto__",
];

const MALFORMED = [
  "†state..x",
  "†state.[",
  "†",
  "†nope.x",
  "†state.a ||",
  "†state.a && && †state.b",
  '†state["x',
  "†state.-1x",
];

/**
 * Input schemas the fuzz input satisfies, typed so that some references no longer fit or resolve. Schemas
 * that are not usable (B9) or that the input breaks (B12) have focused tests in hostile-input.test.ts.
 */
const INPUT_SCHEMAS: readonly unknown[] = [
  {},
  { type: "object" },
  {
    type: "object",
    properties: {
      userId: { type: "string" },
      count: { type: "integer" },
      names: { type: "array", items: { type: "string" } },
    },
    required: ["userId", "count", "names"],
  },
  { type: "object", properties: { userId: { type: "string" } }, required: ["userId"] },
  { type: "object", properties: { count: { type: "number", minimum: 0 } }, additionalProperties: true },
  { type: "object", properties: { userId: { enum: ["u1", "u2"] } } },
  { type: "object", properties: { names: { type: "array", maxItems: 5 } } },
];

/** Sets an own data property, even for `__proto__` (never touches a prototype). */
function defineOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

function nested(depth: number): unknown {
  let value: unknown = "leaf";
  for (let level = 0; level < depth; level += 1) value = level % 2 === 0 ? [value] : { deeper: value };
  return value;
}

function paramKeys(call: Record<string, unknown>): string[] {
  return Object.keys(call).filter((key) => !key.startsWith("_"));
}

/** Applies one mutation to a deep copy of `plan` and returns the copy (`plan` is never changed). */
export function mutatePlan(plan: PlanJson, seed: MutationSeed): PlanJson {
  const copy = JSON.parse(JSON.stringify(plan)) as PlanJson;
  const index = seed.call % copy.plan.length;
  const call = copy.plan[index] as Record<string, unknown>;
  const keys = Object.keys(call);
  const params = paramKeys(call);
  const key = keys[seed.pick % keys.length] as string;
  const param = params[seed.pick % Math.max(params.length, 1)] ?? "extra";
  switch (seed.kind) {
    case "wrong-type":
      call[param] = typeof call[param] === "number" ? "not a number" : seed.pick;
      break;
    case "unknown-tool":
      call._tool = seed.pick % 2 === 0 ? `${String(call._tool)}x` : seed.text;
      break;
    case "broken-reference":
      call[param] = `†state.missing${seed.pick}.value`;
      break;
    case "malformed-reference":
      call[param] = MALFORMED[seed.pick % MALFORMED.length];
      break;
    case "cycle": {
      const last = copy.plan.length - 1;
      (copy.plan[0] as Record<string, unknown>).loop = `†state.v${last}`;
      (copy.plan[last] as Record<string, unknown>)._outputPath = `†state.v${last}`;
      (copy.plan[last] as Record<string, unknown>).back = "†state.v0";
      (copy.plan[0] as Record<string, unknown>)._outputPath = "†state.v0";
      break;
    }
    case "long-string":
      call[param] = "x".repeat(FUZZ_MAX_STRING - 2 + (seed.pick % 5));
      break;
    case "deep-nesting":
      call[param] = nested(60 + (seed.pick % 20));
      break;
    case "unicode":
      defineOwn(call, `${param}${seed.text}`, `${seed.text}†${seed.text}`);
      if (seed.pick % 3 === 0) call._id = `c${seed.text}`;
      break;
    case "proto-key":
      defineOwn(
        seed.pick % 3 === 0 ? (copy as unknown as Record<string, unknown>) : call,
        "__proto__",
        seed.value,
      );
      break;
    case "forbidden-segment":
      if (seed.pick % 2 === 0) call[param] = HOSTILE_SEGMENTS[seed.pick % HOSTILE_SEGMENTS.length];
      else call._outputPath = HOSTILE_SEGMENTS[seed.pick % HOSTILE_SEGMENTS.length];
      break;
    case "random-value":
      call[key] = seed.value;
      break;
    case "delete-key":
      delete call[key];
      break;
    case "unknown-meta":
      call[`_${seed.text}`] = seed.value;
      break;
    case "duplicate-id":
      call._id = (copy.plan[0] as Record<string, unknown>)._id ?? "c0";
      if (index === 0 && copy.plan.length === 1) copy.plan.push({ ...call });
      break;
    case "bad-output-path":
      call._outputPath = seed.pick % 2 === 0 ? `†input.v${index}` : seed.text;
      break;
    case "bad-method":
      call._outputMethod = seed.pick % 2 === 0 ? "append" : seed.value;
      break;
    case "input-schema":
      (copy as unknown as Record<string, unknown>).inputSchema =
        INPUT_SCHEMAS[seed.pick % INPUT_SCHEMAS.length];
      break;
  }
  return copy;
}
