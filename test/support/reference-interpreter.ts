import type { JsonValue } from "@obelisk/core";
import {
  behaviour,
  canonical,
  type Expression,
  type ModelCall,
  outputPathText,
  overlaps,
  type Param,
  type Path,
  type Ref,
  refText,
  targetsOf,
} from "./model-plan.js";
import { applyWrite, getAt, holds } from "./reference-writes.js";

/**
 * A reference interpreter of SPEC.md's run semantics (§2 reading, §3 writing, §7 execution), sequential and
 * written from the spec text and the interpretations docs/spec-deltas.md records, for the plans of
 * model-plan.ts. Those plans only read paths whose other writers come earlier in plan order, so plan order
 * is an order in which every call is decided after its writers, and one state folded in plan order is
 * what each reader sees (co-writers commit in plan order, SPEC §3; other writes touch other paths).
 *
 * Where the spec leaves a choice open (a call both blocked by a failed writer and waiting for an approval;
 * which of several identical calls takes an earlier run's record) the model lists the outcomes the spec
 * allows and follows the engine among them: `open` counts those choices.
 */

export type Status = "succeeded" | "failed" | "blocked" | "waiting" | "satisfied" | "rejected" | "deferred";

/** The engine's outcome of one call, and the arguments its tool received when it ran. */
export interface EngineCall {
  readonly status: string;
  readonly branch?: number | undefined;
  readonly args?: JsonValue | undefined;
  readonly wrote?: readonly string[];
}

export interface ModelOutcome {
  readonly status: Status;
  readonly branch?: number;
  /** The alternative written (0 for a call with one), for succeeded and satisfied calls. */
  readonly took?: number;
  /** References written (SPEC §10's `wrote`); for a satisfied call, only what it re-applied (obelisk README). */
  readonly wrote?: readonly string[];
}

/** A completed call record: what SPEC §7's satisfied check matches. */
interface CompletedRecord {
  readonly key: string;
  readonly branch: number | undefined;
  readonly took: number;
  readonly value: JsonValue;
}

export interface ModelThread {
  state: Record<string, JsonValue>;
  /** Stored outputs of calls without `_outputPath`, by call id (`†calls.<id>`). */
  calls: Record<string, JsonValue>;
  records: CompletedRecord[];
}

export interface ModelRun {
  readonly outcomes: Readonly<Record<string, ModelOutcome>>;
  readonly status: "succeeded" | "failed";
  readonly problems: string[];
  /** Places where the spec allowed more than one outcome and the engine's was taken. */
  readonly open: string[];
}

type Operand =
  | { readonly kind: "value"; readonly value: JsonValue }
  | { readonly kind: "blocked" | "waitingUpstream" | "waitingApproval" | "missing" };
type NotAValue = Exclude<Operand["kind"], "value">;
type Decided =
  | { readonly kind: "value"; readonly value: JsonValue }
  | { readonly kind: "blocked" | "waiting" };
type Choice =
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
function kindsOf<K extends string>(
  items: readonly { readonly kind: string }[],
  map: (kind: string) => K,
): { kind: K }[] {
  return unique(items.filter((item) => item.kind !== "value").map((item) => ({ kind: map(item.kind) })));
}

const settledStatus = (kind: string): "blocked" | "waiting" =>
  kind.startsWith("waiting") ? "waiting" : "blocked";

export function interpretRun(
  plan: readonly ModelCall[],
  thread: ModelThread,
  input: Readonly<Record<string, JsonValue>>,
  engine: Readonly<Record<string, EngineCall | undefined>>,
): ModelRun {
  const outcomes: Record<string, ModelOutcome> = {};
  const problems: string[] = [];
  const open: string[] = [];
  const used = new Set<CompletedRecord>();
  const ranBesideRecord = new Set<string>();
  const newRecords: CompletedRecord[] = [];
  /** Accumulating paths a write of this run re-created: later satisfied co-writers re-apply (decision 0017). */
  const recreated = new Set<string>();
  const accumulates = (method: string) => method !== "set";
  const noteRecreated = (targets: readonly Path[], method: string) => {
    for (const target of targets)
      if (accumulates(method) && !getAt(thread.state, target).found) recreated.add(canonical(target));
  };
  const delivered = (outcome: ModelOutcome | undefined) =>
    outcome?.status === "succeeded" || outcome?.status === "satisfied";

  /** SPEC §2/§6/§7 and decision 0017: one reference as call `self` reads it. */
  function operand(ref: Ref, self: ModelCall): Operand[] {
    const read = (root: unknown, path: Path): Operand => {
      const found = getAt(root, path);
      return found.found ? { kind: "value", value: found.value } : { kind: "missing" };
    };
    if (ref.kind === "input") return [read(input, ref.path)];
    if (ref.kind === "calls") {
      const writer = plan.find((call) => call.id === ref.path[0] && call !== self);
      if (writer === undefined) return [read(thread.calls, ref.path)];
      const outcome = outcomes[writer.id];
      if (!delivered(outcome))
        return [{ kind: outcome?.status === "waiting" ? "waitingUpstream" : "blocked" }];
      return [read(thread.calls, ref.path)];
    }
    const writers = plan.filter(
      (call) => call !== self && targetsOf(call).some((t) => overlaps(t, ref.path)),
    );
    if (writers.length === 0) {
      const value = read(thread.state, ref.path);
      return [value.kind === "missing" && ref.path[0] === "approvals" ? { kind: "waitingApproval" } : value];
    }
    const undelivered = writers.map((call) => outcomes[call.id]).filter((outcome) => !delivered(outcome));
    if (undelivered.length > 0)
      return kindsOf(
        undelivered.map((o) => ({ kind: o?.status ?? "blocked" })),
        (kind) => (kind === "waiting" ? "waitingUpstream" : "blocked"),
      );
    const wrote = writers.some((call) => {
      const took = outcomes[call.id]?.took ?? 0;
      return (call.output?.alternatives[took] ?? []).some((target) => overlaps(target, ref.path));
    });
    if (!wrote) return [{ kind: "blocked" }];
    const value = read(thread.state, ref.path);
    if (value.kind === "missing") problems.push(`model: ${refText(ref)} missing after its writers delivered`);
    return [value];
  }

  /** `a && b`: every operand exists, the value is the last (SPEC §2). */
  function gate(refs: readonly Ref[], self: ModelCall): Operand[] {
    return unique(
      product(refs.map((ref) => operand(ref, self))).flatMap((combo): Operand[] =>
        combo.every((item) => item.kind === "value")
          ? [combo.at(-1) as Operand]
          : kindsOf(combo, (kind) => kind as NotAValue),
      ),
    );
  }

  /**
   * `x || y`: the first alternative that exists (SPEC §2), moving past missing and blocked ones and past a
   * missing approval read directly, but not past a writer waiting for approval (decision 0046).
   */
  function expression(expr: Expression, self: ModelCall): Decided[] {
    const walk = (index: number, seen: readonly string[]): Decided[] => {
      const alternative = expr[index];
      if (alternative === undefined)
        return kindsOf(
          seen.map((kind) => ({ kind })),
          settledStatus,
        );
      return unique(
        gate(alternative, self).flatMap((result): Decided[] => {
          if (result.kind === "value") return [result];
          if (result.kind === "waitingUpstream" && expr.length > 1) return [{ kind: "waiting" }];
          return walk(index + 1, [...seen, result.kind]);
        }),
      );
    };
    return walk(0, []);
  }

  /** A parameter's possible values: whole references keep their JSON type, templates insert text (SPEC §2). */
  function param(value: Param, self: ModelCall): Decided[] {
    switch (value.type) {
      case "literal":
        return [{ kind: "value", value: value.value }];
      case "escaped":
        return [{ kind: "value", value: `†${value.text}` }];
      case "expression":
        return expression(value.expression, self);
      case "alias":
        return expression([[{ kind: "calls", path: [value.id] }]], self);
      case "nested":
        return param(value.inner, self).map((d) =>
          d.kind === "value" ? { kind: "value", value: { deep: [d.value] } } : d,
        );
      case "template": {
        const slots = value.parts.map((part) =>
          typeof part === "string" ? [{ kind: "value", value: part } as Decided] : expression([[part]], self),
        );
        return unique(
          product(slots).flatMap((combo): Decided[] =>
            combo.every((d) => d.kind === "value")
              ? [
                  {
                    kind: "value",
                    value: combo.map((d) => templateText((d as { value: JsonValue }).value)).join(""),
                  },
                ]
              : kindsOf(combo, (kind) => kind as "blocked" | "waiting"),
          ),
        );
      }
    }
  }

  function choices(call: ModelCall): Choice[] {
    const names = Object.keys(call.params);
    const lists = names.map((name) => param(call.params[name] as Param, call));
    return unique(
      product(lists).flatMap((combo): Choice[] => {
        if (!combo.every((d) => d.kind === "value"))
          return kindsOf(combo, (kind) => kind as "blocked" | "waiting");
        const args: Record<string, JsonValue> = {};
        combo.forEach((d, index) => {
          args[names[index] as string] = (d as { value: JsonValue }).value;
        });
        return [{ kind: "run", args }];
      }),
    );
  }

  function pick(call: ModelCall, options: Choice[], seen: EngineCall | undefined): Choice {
    if (options.length === 1) return options[0] as Choice;
    const ran = ["succeeded", "failed", "satisfied"].includes(seen?.status ?? "");
    const match = options.find((option) => (option.kind === "run" ? ran : option.kind === seen?.status));
    open.push(`${call.id}: ${options.map((o) => o.kind).join("/")} -> ${seen?.status}`);
    return match ?? (options[0] as Choice);
  }

  /** SPEC §3 writing and §7 "satisfied": the outcome of a call whose inputs all exist. */
  function execute(
    call: ModelCall,
    args: Record<string, JsonValue>,
    seen: EngineCall | undefined,
  ): ModelOutcome {
    const alternatives = call.output?.alternatives ?? [];
    const method = call.output?.method ?? "set";
    const key = canonical([
      call.tool,
      args,
      call.output === undefined ? null : outputPathText(call.output),
      method,
    ]);
    const record = call.rerun ? undefined : thread.records.find((r) => r.key === key && !used.has(r));
    const branchOf = (took: number) => (alternatives.length >= 2 ? { branch: took } : {});
    if (record !== undefined && seen?.status === "satisfied") {
      used.add(record);
      const wrote: string[] = [];
      if (call.output === undefined) thread.calls[call.id] = record.value;
      for (const target of alternatives[record.took] ?? [])
        if (recreated.has(canonical(target)) || !holds(getAt(thread.state, target), record.value, method)) {
          noteRecreated([target], method);
          const next = applyWrite(thread.state, [target], method, record.value);
          if (next === undefined) problems.push(`model: ${call.id} could not re-apply its record`);
          else thread.state = next;
          wrote.push(refText({ kind: "state", path: target }));
        }
      // a call without `_outputPath` may restore `†calls.<id>` from another call's record: not compared
      return {
        status: "satisfied",
        took: record.took,
        ...branchOf(record.took),
        ...(call.output ? { wrote } : {}),
      };
    }
    // Identical calls: which one an earlier record satisfies is not the spec's to say (checked at the end).
    if (record !== undefined) ranBesideRecord.add(key);
    // SPEC §1/§7: a latent tool's value is the plan's `_output`; without one the call is deferred
    if (call.tool === "gamma" && call.latentOutput === undefined) return { status: "deferred" };
    // SPEC §7: the host's confirm hook (asked before dispatch, so never for a satisfied call) rejects it
    if (args.act === "deny" && call.tool !== "gamma") return { status: "rejected" };
    if (seen?.args !== undefined && canonical(seen.args) !== canonical(args))
      problems.push(`${call.id}: tool got ${canonical(seen.args)}, model resolved ${canonical(args)}`);
    const result: ReturnType<typeof behaviour> =
      call.latentOutput === undefined ? behaviour(call.tool, args) : { kind: "return", value: call.latentOutput };
    let took = 0;
    let value: JsonValue;
    if (result.kind === "throw") {
      if (alternatives.length < 2) return { status: "failed" };
      took = alternatives.length - 1;
      // SPEC §3: `{ name, message, code? }`; a code is text (docs/plan-language.md), and an error without one
      // gets the engine's TOOL_ERROR (the spec leaves `code` optional: a choice, not a contract)
      value = { name: "Error", message: result.message, code: String(result.code ?? "TOOL_ERROR") };
    } else {
      if (result.kind === "branch") took = result.alternative;
      value = result.value;
    }
    if (call.output === undefined) thread.calls[call.id] = value;
    else {
      const next = applyWrite(thread.state, alternatives[took] ?? [], method, value);
      if (next === undefined) return { status: "failed" };
      noteRecreated(alternatives[took] ?? [], method);
      thread.state = next;
    }
    newRecords.push({ key, branch: alternatives.length >= 2 ? took : undefined, took, value });
    const wrote =
      call.output === undefined
        ? [`†calls.${call.id}`]
        : (alternatives[took] ?? []).map((path) => refText({ kind: "state", path }));
    return { status: "succeeded", took, ...branchOf(took), wrote };
  }

  for (const call of plan) {
    const seen = engine[call.id];
    const choice = pick(call, choices(call), seen);
    const outcome: ModelOutcome =
      choice.kind === "run" ? execute(call, choice.args, seen) : { status: choice.kind };
    outcomes[call.id] = outcome;
    if (seen?.status !== outcome.status || seen.branch !== outcome.branch)
      problems.push(
        `${call.id}: engine ${seen?.status}${seen?.branch === undefined ? "" : ` branch ${seen.branch}`}, ` +
          `model ${outcome.status}${outcome.branch === undefined ? "" : ` branch ${outcome.branch}`}`,
      );
    else if (
      outcome.wrote !== undefined &&
      canonical([...(seen.wrote ?? [])].sort()) !== canonical([...outcome.wrote].sort())
    )
      problems.push(`${call.id} wrote: engine ${canonical(seen.wrote)}, model ${canonical(outcome.wrote)}`);
  }
  for (const key of ranBesideRecord)
    if (thread.records.some((record) => record.key === key && !used.has(record)))
      problems.push(`a call ran while an unused completed record matched it: ${key}`);
  thread.records.push(...newRecords);
  const status = Object.values(outcomes).some((o) => o.status === "failed") ? "failed" : "succeeded";
  return { outcomes, status, problems, open };
}

/** SPEC §2 rule 2: strings as they are, other values as compact JSON (keys sorted: docs/plan-language.md). */
function templateText(value: JsonValue): string {
  return typeof value === "string" ? value : canonical(value);
}
