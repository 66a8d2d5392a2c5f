import { type ModelCall, overlaps, type Param, type Ref, targetsOf } from "./model-plan.js";
import type { ModelThread } from "./reference-interpreter.js";
import { getAt } from "./reference-writes.js";

/**
 * Arrival orders of a streamed plan for the model-based property tests: calls sent out of plan order, a
 * reader before its writer, that a batch run of the plan must still agree with.
 */

/** Every reference a parameter reads. */
function paramRefs(param: Param): Ref[] {
  switch (param.type) {
    case "literal":
    case "escaped":
      return [];
    case "expression":
      return param.expression.flat();
    case "alias":
      return [{ kind: "calls", path: [param.id] }];
    case "template":
      return param.parts.filter((part): part is Ref => typeof part !== "string");
    case "nested":
      return paramRefs(param.inner);
  }
}

/** The other calls of the plan that write what `ref` reads (SPEC §6 edges). */
function writersOf(ref: Ref, self: ModelCall, plan: readonly ModelCall[]): ModelCall[] {
  if (ref.kind === "input") return [];
  return plan.filter(
    (call) =>
      call !== self &&
      (ref.kind === "calls"
        ? call.id === ref.path[0]
        : targetsOf(call).some((target) => overlaps(target, ref.path))),
  );
}

/**
 * Whether `call` may arrive once the calls in `sent` have: a streamed call decides each reference over
 * the writers sent before it, or waits for one when none was and the thread holds nothing there (obelisk
 * README, "Streaming runs"). So every reference has all its writers sent, or none and only one writer in
 * the plan over a path the thread lacks; and co-writers of a path arrive in plan order (SPEC §3).
 */
function mayArrive(
  call: ModelCall,
  sent: ReadonlySet<ModelCall>,
  plan: readonly ModelCall[],
  thread: ModelThread,
): boolean {
  const index = plan.indexOf(call);
  const coWriters = plan
    .slice(0, index)
    .filter((other) => targetsOf(other).some((a) => targetsOf(call).some((b) => overlaps(a, b))));
  if (coWriters.some((other) => !sent.has(other))) return false;
  return Object.values(call.params).every((param) =>
    paramRefs(param).every((ref) => {
      const writers = writersOf(ref, call, plan);
      const arrived = writers.filter((writer) => sent.has(writer)).length;
      if (arrived === writers.length) return true;
      const held = getAt(ref.kind === "calls" ? thread.calls : thread.state, ref.path).found;
      return arrived === 0 && writers.length === 1 && !held;
    }),
  );
}

/**
 * A seeded arrival order of the plan's calls, each drawn among those that may arrive next (the first
 * call not yet sent always may: its writers come before it in plan order).
 */
export function arrivalOrder(
  plan: readonly ModelCall[],
  thread: ModelThread,
  random: () => number,
): ModelCall[] {
  const sent = new Set<ModelCall>();
  const order: ModelCall[] = [];
  while (order.length < plan.length) {
    const ready = plan.filter((call) => !sent.has(call) && mayArrive(call, sent, plan, thread));
    const next = ready[Math.floor(random() * ready.length)] as ModelCall;
    sent.add(next);
    order.push(next);
  }
  return order;
}
