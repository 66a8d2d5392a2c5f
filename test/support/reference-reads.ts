import type { JsonValue } from "@obelisk/core";
import {
  canonical,
  type Expression,
  type ModelCall,
  overlaps,
  type Param,
  type Path,
  type Ref,
  refText,
  targetsOf,
} from "./model-plan.js";
import { getAt } from "./reference-writes.js";

/**
 * Reading for the reference interpreter (SPEC §2 references and expressions, §6 edges, §7 blocked and
 * waiting, decisions 0017 and 0046): what a call's parameters resolve to, or why it cannot run. Where the
 * spec allows more than one answer (a call both blocked and waiting) every allowed one is returned.
 */

/** What the reader sees: the plan, the outcomes decided so far, the thread and the run's input. */
export interface ReadView {
  readonly plan: readonly ModelCall[];
  readonly outcomes: Readonly<Record<string, { readonly status: string; readonly took?: number }>>;
  readonly state: unknown;
  readonly calls: unknown;
  readonly input: unknown;
  readonly problems: string[];
  /**
   * A resume may have kept a later write over a completed writer's target (decision 0043): a path its
   * writers delivered may then be missing, and reads as missing.
   */
  readonly keptWrites?: boolean;
}

type Operand =
  | { readonly kind: "value"; readonly value: JsonValue }
  | { readonly kind: "blocked" | "waitingUpstream" | "waitingApproval" | "missing" };
type NotAValue = Exclude<Operand["kind"], "value">;
type Decided =
  | { readonly kind: "value"; readonly value: JsonValue }
  | { readonly kind: "blocked" | "waiting" };
/** A call runs with these arguments, or ends blocked or waiting. */
export type Choice =
  | { readonly kind: "run"; readonly args: Record<string, JsonValue> }
  | { readonly kind: "blocked" | "waiting" };

function unique<T>(items: readonly T[]): T[] {
  const seen = new Map<string, T>();
  for (const item of items) seen.set(canonical(item), item);
  return [...seen.values()];
}

function product<T>(lists: readonly (readonly T[])[]): T[][] {
  return lists.reduce<T[][]>(
    (combos, list) => combos.flatMap((combo) => list.map((item) => [...combo, item])),
    [[]],
  );
}

/** Every outcome a set of non-values allows: one kind, or any of them when they disagree (the spec is silent). */
function kindsOf<K extends string>(items: readonly { readonly kind: string }[], map: (kind: string) => K) {
  return unique(items.filter((item) => item.kind !== "value").map((item) => ({ kind: map(item.kind) })));
}

/** The values, when every item is one. */
function valuesOf(items: readonly (Operand | Decided)[]): JsonValue[] | undefined {
  const values: JsonValue[] = [];
  for (const item of items) if (item.kind === "value") values.push(item.value);
  return values.length === items.length ? values : undefined;
}
const delivered = (status: string | undefined) => status === "succeeded" || status === "satisfied";
const waitingOrBlocked = (kind: string) => (kind.startsWith("waiting") ? "waiting" : "blocked");
const blockedWins = <C extends { readonly kind: string }>(kinds: C[]): C[] =>
  kinds.some((choice) => choice.kind === "blocked")
    ? kinds.filter((choice) => choice.kind === "blocked")
    : kinds;

function read(root: unknown, path: Path): Operand {
  const found = getAt(root, path);
  return found.found ? { kind: "value", value: found.value } : { kind: "missing" };
}

/** One reference as call `self` reads it: its in-plan writers decide it once they have all settled. */
function operand(ref: Ref, self: ModelCall, view: ReadView): Operand[] {
  if (ref.kind === "input") return [read(view.input, ref.path)];
  const writers = view.plan.filter((call) =>
    ref.kind === "calls"
      ? call.id === ref.path[0] && call !== self
      : call !== self && targetsOf(call).some((t) => overlaps(t, ref.path)),
  );
  const root = ref.kind === "calls" ? view.calls : view.state;
  if (writers.length === 0) {
    // no writer in the plan: the context as it is; a missing approval is a gate (SPEC §7)
    const value = read(root, ref.path);
    const approval = ref.kind === "state" && ref.path[0] === "approvals";
    return [value.kind === "missing" && approval ? { kind: "waitingApproval" } : value];
  }
  // decision 0017: a value only once every writer delivered, and one of them wrote the path
  const undelivered = writers.map((call) => view.outcomes[call.id]).filter((o) => !delivered(o?.status));
  if (undelivered.length > 0)
    return kindsOf(
      undelivered.map((o) => ({ kind: o?.status ?? "blocked" })),
      (kind): NotAValue => (kind === "waiting" ? "waitingUpstream" : "blocked"),
    );
  const wrote = writers.some((call) => {
    if (ref.kind === "calls") return true;
    const taken = call.output?.alternatives[view.outcomes[call.id]?.took ?? 0] ?? [];
    return taken.some((target) => overlaps(target, ref.path));
  });
  // SPEC §6: a reference to an alternative not taken cannot be satisfied
  if (!wrote) return [{ kind: "blocked" }];
  const value = read(root, ref.path);
  if (value.kind === "missing" && !view.keptWrites)
    view.problems.push(`model: ${refText(ref)} missing after its writers delivered`);
  return [value];
}

/** `a && b`: every operand exists, the value is the last (SPEC §2). */
function gate(refs: readonly Ref[], self: ModelCall, view: ReadView): Operand[] {
  return unique(
    product(refs.map((ref) => operand(ref, self, view))).flatMap((combo): Operand[] =>
      valuesOf(combo) ? [combo.at(-1) as Operand] : kindsOf(combo, (kind) => kind as NotAValue),
    ),
  );
}

/**
 * `x || y`: the first alternative that exists (SPEC §2), moving past missing and blocked ones and past a
 * missing approval read directly, but not past a writer waiting for approval (decision 0046).
 */
function expression(expr: Expression, self: ModelCall, view: ReadView): Decided[] {
  const walk = (index: number, seen: readonly string[]): Decided[] => {
    const alternative = expr[index];
    if (alternative === undefined)
      return kindsOf(
        seen.map((kind) => ({ kind })),
        waitingOrBlocked,
      );
    return unique(
      gate(alternative, self, view).flatMap((result): Decided[] => {
        if (result.kind === "value") return [result];
        if (result.kind === "waitingUpstream" && expr.length > 1) return [{ kind: "waiting" }];
        return walk(index + 1, [...seen, result.kind]);
      }),
    );
  };
  return walk(0, []);
}

/** SPEC §2 rule 2: strings as they are, other values as compact JSON (keys sorted: docs/plan-language.md). */
function templateText(value: JsonValue): string {
  return typeof value === "string" ? value : canonical(value);
}

/** A parameter's possible values: whole references keep their JSON type, templates insert text (SPEC §2). */
function param(value: Param, self: ModelCall, view: ReadView): Decided[] {
  switch (value.type) {
    case "literal":
      return [{ kind: "value", value: value.value }];
    case "escaped":
      return [{ kind: "value", value: `†${value.text}` }];
    case "expression":
      return expression(value.expression, self, view);
    case "alias":
      return expression([[{ kind: "calls", path: [value.id] }]], self, view);
    case "nested":
      return param(value.inner, self, view).map((d) =>
        d.kind === "value" ? { kind: "value", value: { deep: [d.value] } } : d,
      );
    case "template": {
      const slots = value.parts.map((part): Decided[] =>
        typeof part === "string" ? [{ kind: "value", value: part }] : expression([[part]], self, view),
      );
      return unique(
        product(slots).flatMap((combo): Decided[] => {
          const values = valuesOf(combo);
          return values
            ? [{ kind: "value", value: values.map(templateText).join("") }]
            : kindsOf(combo, waitingOrBlocked);
        }),
      );
    }
  }
}

/** What a call can do once its writers have settled: run with these arguments, or end blocked or waiting. */
export function callChoices(call: ModelCall, view: ReadView): Choice[] {
  const names = Object.keys(call.params);
  const lists = names.map((name) => param(call.params[name] as Param, call, view));
  return unique(
    product(lists).flatMap((combo): Choice[] => {
      const values = valuesOf(combo);
      // across parameters a blocked one wins over waiting: approving cannot help (decision 0047)
      if (values === undefined) return blockedWins(kindsOf(combo, waitingOrBlocked));
      return [
        {
          kind: "run",
          args: Object.fromEntries(names.map((name, index) => [name, values[index] as JsonValue])),
        },
      ];
    }),
  );
}
