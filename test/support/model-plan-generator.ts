import type { JsonValue } from "@obelisk/core";
import fc from "fast-check";
import type {
  Act,
  Expression,
  Method,
  ModelCall,
  Output,
  Param,
  Path,
  Ref,
  Shape,
  Spelling,
} from "./model-plan.js";
import { overlaps, targetsOf } from "./model-plan.js";

/**
 * Random plans for the model-based property test: 2–12 calls of two tools that return, branch or throw,
 * writing to their own paths, under a shared parent (`†state.grp`) or to accumulating paths several calls
 * share; reading earlier calls' paths (whole, a child, the shared parent), `†calls.<id>`, the input, a
 * seeded state value and approvals, through whole references, fallbacks, gates, templates and nested values.
 * Every other writer of a path a call reads comes earlier in plan order (no cycles; see the interpreter).
 */

interface CallSeed {
  readonly tool: "alpha" | "beta" | "gamma";
  /** For the latent `gamma`: no `_output` (deferred) when 0. */
  readonly latent: number;
  readonly spelling: Spelling;
  readonly act: number;
  readonly shape: number;
  readonly output: "none" | "own" | "acc";
  readonly alternatives: number;
  readonly fanOut: number;
  readonly grouped: boolean;
  readonly method: number;
  readonly accPlace: number;
  readonly rerun: boolean;
  readonly explicitMethod: boolean;
  /** The call repeats the one before it (same tool, parameters and output path) under another id. */
  readonly duplicate: boolean;
  readonly reads: readonly (readonly [number, number, number, number])[];
}

const SHAPES: readonly Shape[] = ["num", "str", "obj", "arr", "falsy"];
const ACC: readonly Method[] = ["push", "concat", "merge", "assign"];
const OWN_METHODS: readonly Method[] = ["set", "set", "set", "push", "merge", "assign", "concat"];

const callSeed: fc.Arbitrary<CallSeed> = fc.record({
  tool: fc.nat(9).map((n) => (n < 5 ? "alpha" : n < 9 ? "beta" : "gamma")),
  latent: fc.nat(4),
  spelling: fc.constantFrom<Spelling>(0, 1, 2),
  act: fc.nat(99),
  shape: fc.nat(SHAPES.length - 1),
  output: fc.constantFrom<CallSeed["output"]>("none", "own", "own", "own", "acc"),
  alternatives: fc.integer({ min: 1, max: 3 }),
  fanOut: fc.nat(3),
  grouped: fc.boolean(),
  method: fc.nat(OWN_METHODS.length - 1),
  accPlace: fc.nat(5),
  rerun: fc.nat(9).map((n) => n === 9),
  explicitMethod: fc.boolean(),
  duplicate: fc.nat(5).map((n) => n === 5),
  reads: fc.array(fc.tuple(fc.nat(99), fc.nat(99), fc.nat(99), fc.nat(99)), { maxLength: 3 }),
});

/** The method that fits a shape: concat needs an array value, assign and merge an object one (SPEC §3). */
function shapeFor(method: Method, picked: Shape): Shape {
  if (method === "concat") return "arr";
  return method === "merge" || method === "assign" ? "obj" : picked;
}

function outputOf(index: number, seed: CallSeed): { output?: Output; shape: Shape } {
  const picked = SHAPES[seed.shape] as Shape;
  if (seed.output === "none") return { shape: picked };
  const own = (alternative: number, target: number): Path => {
    const name = `w${index}_${alternative}${target}`;
    // the second alternative leaves or joins the shared parent: a reader of it may find no writer wrote it
    return seed.grouped !== (alternative === 1) ? ["grp", name] : [name];
  };
  if (seed.output === "acc") {
    const method = ACC[seed.accPlace % ACC.length] as Method;
    const acc: Path = [`acc_${method}`];
    // a failure routed to a concat path would not be an array: concat paths take one alternative
    const alternatives =
      method === "concat" || seed.accPlace < 2
        ? [[acc]]
        : seed.accPlace < 4
          ? [[acc], [own(1, 0)]]
          : [[own(0, 0)], [acc]];
    return {
      output: { alternatives, method, explicitMethod: true, spelling: seed.spelling },
      shape: shapeFor(method, picked),
    };
  }
  const method = OWN_METHODS[seed.method] as Method;
  const count = method === "concat" ? 1 : seed.alternatives;
  const alternatives = Array.from({ length: count }, (_, alternative) =>
    Array.from({ length: seed.fanOut === 3 && alternative === 0 ? 2 : 1 }, (_, target) =>
      own(alternative, target),
    ),
  );
  // No target below `†state.bad`, a stored string: validation refuses the plan (decision 0091), so such a
  // write can no longer fail a call at commit; the model keeps the stored string, written by no call.
  const output = { alternatives, method, explicitMethod: seed.explicitMethod, spelling: seed.spelling };
  return { output, shape: shapeFor(method, picked) };
}

function actOf(pick: number, output: Output | undefined, latent: boolean): Act {
  const count = output?.alternatives.length ?? 0;
  if (pick < 50 || latent) return "ok";
  if (pick >= 96) return "deny";
  if (pick < 62) return "throw";
  if (pick < 74) return "maybe";
  if (count === 0) return "ok";
  if (pick < 80) return "b0";
  return count >= 2 && pick < 92 ? "b1" : count >= 3 ? "b2" : "ok";
}

const INPUT_REFS: readonly Ref[] = [
  { kind: "input", path: ["a"] },
  { kind: "input", path: ["s"] },
  { kind: "input", path: ["o"] },
  { kind: "input", path: ["o", "k", 1] },
  { kind: "input", path: ["o", "k", -1] },
  { kind: "input", path: ["z"] },
  // values that exist though they are falsy (SPEC §2: existence, not truthiness)
  { kind: "input", path: ["nul"] },
  { kind: "input", path: ["no"] },
  { kind: "input", path: ["empty"] },
  { kind: "state", path: ["seed", "nul"] },
  { kind: "state", path: ["seed", "a"] },
  { kind: "state", path: ["seed", "arr", -1] },
  { kind: "state", path: ["seed"] },
];
const APPROVALS: readonly Ref[] = [0, 1, 2].map((n) => ({ kind: "state", path: ["approvals", `p${n}`] }));
const MISSING: Ref = { kind: "input", path: ["nope"] };

/** The references call `index` may read from this plan's writers: each one's other writers come earlier. */
function planReads(
  index: number,
  calls: readonly ModelCall[],
  acts: readonly Act[],
  shapes: readonly Shape[],
): Ref[] {
  const self = calls[index] as ModelCall;
  const readable = (path: Path) =>
    !targetsOf(self).some((t) => overlaps(t, path)) &&
    calls.every(
      (call, other) => other < index || other === index || !targetsOf(call).some((t) => overlaps(t, path)),
    );
  const refs: Ref[] = [];
  calls.slice(0, index).forEach((call, writer) => {
    if (call.output === undefined) {
      refs.push({ kind: "calls", path: [call.id] });
      if (shapes[writer] === "obj") refs.push({ kind: "calls", path: [call.id, "h"] });
      return;
    }
    const { alternatives, method } = call.output;
    alternatives.forEach((targets, alternative) => {
      for (const target of targets) {
        if (!readable(target)) continue;
        refs.push({ kind: "state", path: target });
        const mayThrow = acts[writer] === "throw" || acts[writer] === "maybe";
        const failureBranch = alternatives.length >= 2 && alternative === alternatives.length - 1;
        if (method === "set" && shapes[writer] === "obj" && !(mayThrow && failureBranch))
          refs.push({ kind: "state", path: [...target, "h"] });
        // the first and last items of a list co-writers build in plan order
        if (String(target[0]).startsWith("acc_") && (method === "push" || method === "concat"))
          refs.push({ kind: "state", path: [...target, 0] }, { kind: "state", path: [...target, -1] });
      }
    });
  });
  if (calls.slice(0, index).some((call) => targetsOf(call).some((t) => t[0] === "grp")) && readable(["grp"]))
    refs.push({ kind: "state", path: ["grp"] });
  return refs.filter(
    (ref, at) => refs.findIndex((other) => JSON.stringify(other) === JSON.stringify(ref)) === at,
  );
}

/** A latent call's `_output`, of the shape its method needs. */
function latentValue(shape: Shape): JsonValue {
  return { num: 42, str: "latent", obj: { n: { x9: 1 }, k: "lat", h: 7 }, arr: [7, "lat"], falsy: null }[
    shape
  ];
}

function literal(pick: number): JsonValue {
  return pick % 3 === 0 ? pick : pick % 3 === 1 ? `lit${pick % 7}` : { x: [pick % 5] };
}

function paramOf(
  read: readonly [number, number, number, number],
  pool: (pick: number) => Ref,
  self?: Ref,
): Param {
  const [form, a, b, c] = read;
  const spelling = ((a + b) % 3) as Spelling;
  const expression = (expr: Expression): Param => ({ type: "expression", expression: expr, spelling });
  if (self !== undefined && form < 12) return expression([[self], [{ kind: "input", path: ["z"] }]]);
  if (form < 5) return { type: "escaped", text: `state.lit${a % 3}` };
  if (form < 20) return { type: "literal", value: literal(a) };
  if (form < 45) {
    const ref = pool(a);
    const aliased = ref.kind === "calls" && ref.path.length === 1 && b % 2 === 0;
    return aliased ? { type: "alias", id: String(ref.path[0]) } : expression([[ref]]);
  }
  if (form < 57)
    return expression(
      a % 4 === 0 ? [[MISSING], [pool(b)]] : [[pool(a)], [pool(b)], ...(c % 2 ? [[pool(c)]] : [])],
    );
  if (form < 67) return expression([[pool(a), pool(b)]]);
  if (form < 75) return expression([[pool(a), pool(b)], [pool(c)]]);
  if (form < 90)
    return { type: "template", parts: c % 2 === 0 ? ["t {†x} ", pool(a), "!"] : [pool(a), " & ", pool(b)] };
  return { type: "nested", inner: expression([[pool(a)]]) };
}

function buildPlan(given: readonly CallSeed[]): ModelCall[] {
  // a duplicate of a call writing an accumulating path, or none, is the same call (SPEC §7's key) twice
  const seeds: CallSeed[] = [];
  for (const seed of given) {
    const before = seeds.at(-1);
    const copies = seed.duplicate && before !== undefined && before.output !== "own";
    seeds.push(copies ? { ...before, duplicate: true } : { ...seed, duplicate: false });
  }
  const shells = seeds.map((seed, index) => ({ seed, ...outputOf(index, seed) }));
  const acts = shells.map(({ seed, output }) => actOf(seed.act, output, seed.tool === "gamma"));
  const skeleton: ModelCall[] = shells.map(({ seed, output, shape }, index) => ({
    id: `c${index}`,
    tool: seed.tool,
    params: { act: { type: "literal", value: acts[index] as Act }, shape: { type: "literal", value: shape } },
    ...(output === undefined ? {} : { output }),
    rerun: seed.rerun,
    ...(seed.tool === "gamma" && seed.latent > 0 ? { latentOutput: latentValue(shape) } : {}),
  }));
  const shapes = shells.map((shell) => shell.shape);
  const built: ModelCall[] = [];
  skeleton.forEach((call, index) => {
    const before = built[index - 1];
    if ((seeds[index] as CallSeed).duplicate && before !== undefined) {
      built.push({ ...call, params: before.params });
      return;
    }
    const fromPlan = planReads(index, skeleton, acts, shapes);
    const pool = (pick: number): Ref => {
      const group = pick % 10;
      if (fromPlan.length > 0 && group < 6) return fromPlan[Math.floor(pick / 10) % fromPlan.length] as Ref;
      if (group < 8) return INPUT_REFS[pick % INPUT_REFS.length] as Ref;
      return APPROVALS[pick % APPROVALS.length] as Ref;
    };
    const own = call.output?.alternatives[0]?.[0];
    const soleWriter =
      own !== undefined &&
      own[0] !== "grp" &&
      !String(own[0]).startsWith("acc_") &&
      skeleton.every((other) => other === call || !targetsOf(other).some((t) => overlaps(t, own)));
    const selfRef: Ref | undefined = soleWriter ? { kind: "state", path: own } : undefined;
    const params: Record<string, Param> = { ...call.params };
    (seeds[index] as CallSeed).reads.forEach((read, at) => {
      params[`r${at}`] = paramOf(read, pool, at === 0 ? selfRef : undefined);
    });
    built.push({ ...call, params });
  });
  return built;
}

export interface ModelScenario {
  readonly plan: ModelCall[];
  /** Approvals given before the first run and between the runs (bits of p0, p1, p2). */
  readonly approvalsBefore: number;
  readonly approvalsBetween: number;
  /** A target overwritten (or, for a top-level one, removed) between the runs: index into the plan's targets. */
  readonly clobber: number | undefined;
  readonly unset: boolean;
  /** The second run's input has another `z`. */
  readonly newInput: boolean;
  /** A third run follows the second, with nothing changed in between. */
  readonly third: boolean;
  /** Which runs are streamed (`open` and `add`, bit n for run n) instead of batch `run`s. */
  readonly streamed: number;
  /** Seed of the engine's completion order. */
  readonly schedule: number;
}

export const modelScenario: fc.Arbitrary<ModelScenario> = fc.record({
  plan: fc.array(callSeed, { minLength: 2, maxLength: 12 }).map(buildPlan),
  approvalsBefore: fc.nat(7),
  approvalsBetween: fc.nat(7),
  clobber: fc.option(fc.nat(50), { nil: undefined, freq: 3 }),
  unset: fc.boolean(),
  newInput: fc.nat(3).map((n) => n === 0),
  third: fc.nat(2).map((n) => n === 2),
  streamed: fc.nat(7),
  schedule: fc.nat(),
});
