import type { JsonValue } from "@obelisk/core";
import {
  behaviour,
  canonical,
  type Method,
  type ModelCall,
  outputPathText,
  overlaps,
  type Param,
  type Path,
  refText,
  targetsOf,
} from "./model-plan.js";
import { type Choice, callChoices, type ReadView } from "./reference-reads.js";
import { applyWrite, getAt, holds } from "./reference-writes.js";

/** The arguments with those parameters masked that read one of the call's own targets (decision 0012). */
function maskSelfReads(call: ModelCall, args: Record<string, JsonValue>): Record<string, JsonValue> {
  const own = targetsOf(call);
  const readsOwn = (param: Param): boolean =>
    param.type === "expression"
      ? param.expression.some((gate) =>
          gate.some((ref) => ref.kind === "state" && own.some((target) => overlaps(target, ref.path))),
        )
      : param.type === "nested" && readsOwn(param.inner);
  const masked = { ...args };
  for (const [name, param] of Object.entries(call.params)) if (readsOwn(param)) masked[name] = "(own)";
  return masked;
}

/**
 * A reference interpreter of SPEC.md's run semantics (§2 reading, §3 writing, §7 execution), sequential and
 * written from the spec text and the interpretations docs/spec-deltas.md records, for the plans of
 * model-plan.ts. Those plans only read paths whose other writers come earlier in plan order, so plan order
 * is an order in which every call is decided after its writers, and one state folded in plan order is
 * what each reader sees (co-writers commit in plan order, SPEC §3; other writes touch other paths).
 *
 * Where the spec leaves a choice open (a call both blocked by a failed writer and waiting for an approval;
 * which of several identical calls takes an earlier run's record) the model lists the outcomes the spec
 * allows and follows the engine among them: `open` lists those choices.
 */

export type Status = "succeeded" | "failed" | "blocked" | "waiting" | "satisfied" | "rejected" | "deferred";

/** The engine's outcome of one call, and the arguments its tool received when it ran. */
export interface EngineCall {
  readonly status: string;
  readonly branch?: number | undefined;
  readonly args?: JsonValue | undefined;
  readonly wrote?: readonly string[];
}

interface ModelOutcome {
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
  /** The key with the parameters that read the call's own targets masked (decision 0012's resume match). */
  readonly ownKey: string;
  /** The id of the call that completed it. */
  readonly owner: string;
  readonly took: number;
  readonly value: JsonValue;
}

/** One effect a call left on the thread: a write to its targets, or its output stored as `†calls.<id>`. */
export type ModelEffect =
  | {
      readonly id: string;
      readonly targets: readonly Path[];
      readonly method: Method;
      readonly value: JsonValue;
    }
  | { readonly id: string; readonly output: JsonValue };

/**
 * How the run is read. `resume`: the run continues an interrupted run of the same plan whose records are
 * every record the thread holds — a call is satisfied by its own record only, `_rerun` included (decisions
 * 0012, 0045), and restores only targets that are missing (0043). `interrupted`: the engine's run was
 * stopped, so a call it reports `cancelled` or not at all is not compared (the model decides it as an
 * uninterrupted run would, for the calls after it).
 */
export interface RunMode {
  readonly resume?: boolean;
  readonly interrupted?: boolean;
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
  /** The records this run completed. */
  readonly records: readonly CompletedRecord[];
  /** What each call left on the thread, in the order the model applied it (plan order). */
  readonly effects: readonly ModelEffect[];
}

/** One run of a plan on the model thread (which it updates), compared call by call with the engine's. */
export function interpretRun(
  plan: readonly ModelCall[],
  thread: ModelThread,
  input: Readonly<Record<string, JsonValue>>,
  engine: Readonly<Record<string, EngineCall | undefined>>,
  mode: RunMode = {},
): ModelRun {
  return new RunInterpreter(plan, thread, input, mode).run(engine);
}

/**
 * The thread as it is once only the effects of the calls in `ids` were committed (an interrupted run:
 * each call's writes are atomic, co-writers commit in plan order), with those calls' completed records.
 */
export function committedThread(
  before: ModelThread,
  run: { readonly effects: readonly ModelEffect[]; readonly records: readonly CompletedRecord[] },
  ids: ReadonlySet<string>,
): ModelThread {
  let state = structuredClone(before.state);
  const calls = structuredClone(before.calls);
  for (const effect of run.effects) {
    if (!ids.has(effect.id)) continue;
    if ("output" in effect) calls[effect.id] = structuredClone(effect.output);
    else {
      const next = applyWrite(state, effect.targets, effect.method, effect.value);
      if (next === undefined) throw new Error(`model: ${effect.id}'s committed write cannot be replayed`);
      state = next;
    }
  }
  const records = [...before.records, ...run.records.filter((record) => ids.has(record.owner))];
  return { state, calls, records };
}

const describe = (outcome: { status?: string; branch?: number | undefined } | undefined) =>
  `${outcome?.status}${outcome?.branch === undefined ? "" : ` branch ${outcome.branch}`}`;
const sameList = (a: readonly string[] | undefined, b: readonly string[]) =>
  canonical([...(a ?? [])].sort()) === canonical([...b].sort());

class RunInterpreter {
  private readonly outcomes: Record<string, ModelOutcome> = {};
  private readonly problems: string[] = [];
  private readonly open: string[] = [];
  /** SPEC §7 / decision 0012: a completed record satisfies at most one call of a run. */
  private readonly used = new Set<CompletedRecord>();
  private readonly ranBesideRecord = new Set<string>();
  private readonly newRecords: CompletedRecord[] = [];
  /** Accumulating paths a write of this run re-created: later satisfied co-writers re-apply (decision 0017). */
  private readonly recreated = new Set<string>();
  private readonly effects: ModelEffect[] = [];

  constructor(
    private readonly plan: readonly ModelCall[],
    private readonly thread: ModelThread,
    private readonly input: Readonly<Record<string, JsonValue>>,
    private readonly mode: RunMode,
  ) {}

  run(engine: Readonly<Record<string, EngineCall | undefined>>): ModelRun {
    for (const call of this.plan) {
      const seen = engine[call.id];
      const choice = this.pick(call, callChoices(call, this.view()), seen);
      const outcome: ModelOutcome =
        choice.kind === "run" ? this.execute(call, choice.args, seen) : { status: choice.kind };
      this.outcomes[call.id] = outcome;
      if (this.mode.interrupted && (seen === undefined || seen.status === "cancelled")) continue;
      if (seen?.status !== outcome.status || seen.branch !== outcome.branch)
        this.problems.push(`${call.id}: engine ${describe(seen)}, model ${describe(outcome)}`);
      // a stopped run's call records do not say what they wrote (its thread is compared instead)
      else if (this.mode.interrupted && seen.wrote === undefined) continue;
      else if (outcome.wrote !== undefined && !sameList(seen.wrote, outcome.wrote))
        this.problems.push(
          `${call.id} wrote: engine ${canonical(seen.wrote)}, model ${canonical(outcome.wrote)}`,
        );
    }
    for (const key of this.ranBesideRecord)
      if (this.thread.records.some((record) => record.key === key && !this.used.has(record)))
        this.problems.push(`a call ran while an unused completed record matched it: ${key}`);
    this.thread.records.push(...this.newRecords);
    const failed = Object.values(this.outcomes).some((o) => o.status === "failed");
    return {
      outcomes: this.outcomes,
      status: failed ? "failed" : "succeeded",
      problems: this.problems,
      open: this.open,
      records: this.newRecords,
      effects: this.effects,
    };
  }

  private view(): ReadView {
    const { plan, outcomes, thread, input, problems } = this;
    const keptWrites = this.mode.resume === true;
    return { plan, outcomes, state: thread.state, calls: thread.calls, input, problems, keptWrites };
  }

  /** The spec's outcome, or the engine's among those the spec allows. */
  private pick(call: ModelCall, options: Choice[], seen: EngineCall | undefined): Choice {
    if (options.length === 1) return options[0] as Choice;
    const ran = ["succeeded", "failed", "satisfied"].includes(seen?.status ?? "");
    const match = options.find((option) => (option.kind === "run" ? ran : option.kind === seen?.status));
    this.open.push(`${call.id}: ${options.map((o) => o.kind).join("/")} -> ${seen?.status}`);
    return match ?? (options[0] as Choice);
  }

  /** SPEC §7: satisfied by an earlier run's record, deferred (latent), rejected (confirm), or run. */
  private execute(
    call: ModelCall,
    args: Record<string, JsonValue>,
    seen: EngineCall | undefined,
  ): ModelOutcome {
    const output = call.output === undefined ? null : outputPathText(call.output);
    const keyOf = (values: Record<string, JsonValue>) =>
      canonical([call.tool, values, output, call.output?.method ?? "set"]);
    const key = keyOf(args);
    const ownKey = keyOf(maskSelfReads(call, args));
    // a resume: the call's own record in the chain, `_rerun` or not (0045); its self-reading parameters
    // resolve to its own result now, so they are left out of the match (0012's amendment)
    const record = this.mode.resume
      ? this.thread.records.find((r) => r.owner === call.id && r.ownKey === ownKey && !this.used.has(r))
      : call.rerun
        ? undefined
        : this.thread.records.find((r) => r.key === key && !this.used.has(r));
    if (record !== undefined && (this.mode.resume || seen?.status === "satisfied"))
      return this.satisfy(call, record);
    // identical calls: which one an earlier record satisfies is not the spec's to say (checked at the end)
    if (record !== undefined && !this.mode.resume) this.ranBesideRecord.add(key);
    // SPEC §1/§7: a latent tool's value is the plan's `_output`; without one the call is deferred
    if (call.tool === "gamma" && call.latentOutput === undefined) return { status: "deferred" };
    // SPEC §7: the host's confirm hook (asked before dispatch, so never for a satisfied call) rejects it
    if (args.act === "deny" && call.tool !== "gamma") return { status: "rejected" };
    if (seen?.args !== undefined && canonical(seen.args) !== canonical(args))
      this.problems.push(`${call.id}: tool got ${canonical(seen.args)}, model resolved ${canonical(args)}`);
    return this.perform(call, { key, ownKey }, args);
  }

  /** Its recorded outcome stands, re-applied where the targets no longer hold it (SPEC §7, decision 0017). */
  private satisfy(call: ModelCall, record: CompletedRecord): ModelOutcome {
    this.used.add(record);
    const method = call.output?.method ?? "set";
    const alternatives = call.output?.alternatives ?? [];
    const wrote: string[] = [];
    if (call.output === undefined) this.thread.calls[call.id] = record.value;
    for (const target of alternatives[record.took] ?? []) {
      // a resume restores only a missing target: another value there was written later (decision 0043)
      const at = getAt(this.thread.state, target);
      const lost = this.mode.resume ? !at.found : !holds(at, record.value, method);
      if (!lost && !this.recreated.has(canonical(target))) continue;
      if (!this.write(call, [target], record.value))
        this.problems.push(`model: ${call.id} could not re-apply`);
      wrote.push(refText({ kind: "state", path: target }));
    }
    const branch = alternatives.length >= 2 ? { branch: record.took } : {};
    // a call without `_outputPath` may restore `†calls.<id>` from another call's record: not compared
    return { status: "satisfied", took: record.took, ...branch, ...(call.output ? { wrote } : {}) };
  }

  /** SPEC §3: the tool's value to the first alternative, or the one it picks; a throw to the last, or failed. */
  private perform(
    call: ModelCall,
    keys: { readonly key: string; readonly ownKey: string },
    args: Record<string, JsonValue>,
  ): ModelOutcome {
    const alternatives = call.output?.alternatives ?? [];
    const result: ReturnType<typeof behaviour> =
      call.latentOutput === undefined
        ? behaviour(call.tool, args)
        : { kind: "return", value: call.latentOutput };
    let took = 0;
    let value: JsonValue;
    if (result.kind === "throw") {
      if (alternatives.length < 2) return { status: "failed" };
      took = alternatives.length - 1;
      // SPEC §3: `{ name, message, code? }`; a code is text (docs/plan-language.md), and an error without one
      // gets the engine's TOOL_ERROR (the spec leaves `code` optional: a choice, not a contract)
      value = { name: "Error", message: result.message, code: String(result.code ?? "TOOL_ERROR") };
    } else {
      took = result.kind === "branch" ? result.alternative : 0;
      value = result.value;
    }
    const targets = alternatives[took] ?? [];
    if (call.output === undefined) {
      this.thread.calls[call.id] = value;
      this.effects.push({ id: call.id, output: value });
    } else if (!this.write(call, targets, value)) return { status: "failed" };
    this.newRecords.push({ ...keys, owner: call.id, took, value });
    const wrote = call.output
      ? targets.map((path) => refText({ kind: "state", path }))
      : [`†calls.${call.id}`];
    return { status: "succeeded", took, ...(alternatives.length >= 2 ? { branch: took } : {}), wrote };
  }

  /** Writes to every target at once, or to none (a write that cannot be made fails the call). */
  private write(call: ModelCall, targets: readonly Path[], value: JsonValue): boolean {
    const method = call.output?.method ?? "set";
    const next = applyWrite(this.thread.state, targets, method, value);
    if (next === undefined) return false;
    for (const target of targets)
      if (method !== "set" && !getAt(this.thread.state, target).found) this.recreated.add(canonical(target));
    this.thread.state = next;
    this.effects.push({ id: call.id, targets, method, value });
    return true;
  }
}
