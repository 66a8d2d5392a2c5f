import fc from "fast-check";

/** A plan document as plain JSON data (the canonical `{ type: "plan", plan: [...] }` form). */
export interface PlanJson {
  type: "plan";
  plan: Record<string, unknown>[];
}

/** The input every generated valid plan is compiled with. */
export const FUZZ_INPUT = { userId: "u1", count: 2, names: ["Ada", "Grace"] };

type CallShape = "fetchUser" | "add" | "echo" | "greet" | "verify";

interface Written {
  readonly shape: CallShape;
  readonly read: string;
}

/** Builds call `index` of a valid plan from a few random choices and what earlier calls wrote. */
function buildCall(index: number, shape: CallShape, pick: number, stored: boolean, earlier: Written[]) {
  const id = `c${index}`;
  const of = (wanted: CallShape) => earlier.filter((written) => written.shape === wanted);
  const choose = <T>(items: readonly T[]): T | undefined => items[pick % Math.max(items.length, 1)];
  const call: Record<string, unknown> = { _tool: shape, _id: id };
  if (shape !== "verify" && !stored) call._outputPath = `†state.v${index}`;
  switch (shape) {
    case "fetchUser":
      call.id = pick % 2 === 0 ? "†input.userId" : `user-${pick}`;
      break;
    case "add": {
      const number = choose(of("add"));
      call.a = number === undefined ? pick : number.read;
      call.b = "†input.count";
      break;
    }
    case "greet": {
      const user = choose(of("fetchUser"));
      call.name = user === undefined ? "Ada" : `{${user.read}.name}`;
      break;
    }
    case "echo": {
      const any = choose(earlier);
      call.value = any === undefined ? { literal: [1, "two", null] } : any.read;
      call.names = "†input.names";
      break;
    }
    case "verify":
      call.value = choose(earlier)?.read ?? "†input.userId";
      call._outputPath = `†state.v${index}.verified || †state.v${index}.failed`;
      break;
  }
  return call;
}

/** Arbitrary valid plans (1–8 calls, references to earlier outputs and the input), compiled against fuzzTools. */
export const validPlan: fc.Arbitrary<PlanJson> = fc
  .array(
    fc.record({
      shape: fc.constantFrom<CallShape>("fetchUser", "add", "echo", "greet", "verify"),
      pick: fc.nat(1000),
      stored: fc.boolean(),
    }),
    { minLength: 1, maxLength: 8 },
  )
  .map((specs) => {
    const written: Written[] = [];
    const plan = specs.map((spec, index) => {
      const call = buildCall(index, spec.shape, spec.pick, spec.stored, written);
      const read = spec.stored ? `†calls.c${index}` : `†state.v${index}`;
      written.push({ shape: spec.shape, read: spec.shape === "verify" ? `†state.v${index}.verified` : read });
      return call;
    });
    return { type: "plan", plan };
  });
