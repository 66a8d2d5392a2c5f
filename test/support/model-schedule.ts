import type { JsonValue } from "@obelisk/core";
import { branch } from "obelisk";
import { behaviour } from "./model-plan.js";

/**
 * The tools' side of the model-based property test (model-run.property.test.ts): each call's behaviour comes
 * from its arguments (model-plan.ts `behaviour`); when it settles, and in which of the ways a tool may
 * answer, comes from a seeded random source — some calls answer at once, the others in a drawn order.
 */

type Settle = () => void;
export type ToolContext = { callId: string; branch(k: number | string, v: unknown): unknown };
/** beta names its alternatives (SPEC §9 `outcomes`) and picks them by name. */
export const OUTCOMES = ["first", "second", "third"];

/** Tries to change a value in place (SPEC §7: values handed to tools are frozen or copies). */
function tamper(value: unknown): void {
  try {
    if (Array.isArray(value)) value.push("tampered");
    else if (value !== null && typeof value === "object") {
      for (const item of Object.values(value)) tamper(item);
      (value as Record<string, unknown>).tampered = true;
    }
  } catch {
    // frozen: as it should be
  }
}

/**
 * Where a run is stopped: once its tools have answered `at` times, `stop` is called until it stops the run
 * (`false`: not yet, ask again after the next settlement).
 */
export interface StopPoint {
  readonly at: number;
  readonly stop: () => boolean;
}

/** Settles tool calls now or later, in an order drawn from a seeded random source. */
export class Schedule {
  readonly args: Record<string, JsonValue> = {};
  private readonly pending: Settle[] = [];
  /** Changes to make to values tools handed over, between settlements. */
  private readonly later: Settle[] = [];
  private answers = 0;
  /**
   * `stopAt`: how many tool answers the run gets before it is stopped (abort, engine close, crash), between
   * two settlements; the calls then in flight never settle, as tools still working when a process stops.
   */
  constructor(
    private readonly random: () => number,
    private readonly stopAt?: StopPoint,
  ) {}

  invoke(tool: string, args: Record<string, JsonValue>, ctx: ToolContext) {
    this.args[ctx.callId] = structuredClone(args);
    const outcome = behaviour(tool, args);
    tamper(args);
    const form = this.random();
    const answer = () => {
      if (outcome.kind === "throw")
        throw Object.assign(
          new Error(outcome.message),
          outcome.code === undefined ? {} : { code: outcome.code },
        );
      if (outcome.kind === "return") return outcome.value;
      const alternative = tool === "beta" ? (OUTCOMES[outcome.alternative] as string) : outcome.alternative;
      // the three ways to pick an alternative: return ctx.branch(), return branch(), or call ctx.branch()
      if (form < 0.3) return branch(alternative, outcome.value);
      if (form < 0.6) return ctx.branch(alternative, outcome.value);
      ctx.branch(alternative, outcome.value);
      return undefined;
    };
    // a tool that keeps its result and changes it once it was handed over must not change what was stored
    const handOver = () => {
      this.answers += 1;
      const result = answer();
      this.later.push(() => tamper(outcome.kind === "throw" ? undefined : outcome.value));
      return result;
    };
    if (this.random() < 0.3) return handOver();
    return new Promise((resolve, reject) => {
      this.pending.push(() => {
        try {
          resolve(handOver());
        } catch (error) {
          reject(error);
        }
      });
    });
  }

  /** Settles the pending calls one at a time, a random one each turn, until `run` is done. */
  async drive<T>(run: Promise<T>): Promise<T> {
    let done = false;
    const finished = run.finally(() => {
      done = true;
    });
    let stopped = false;
    while (!done) {
      await new Promise((resolve) => setImmediate(resolve));
      if (!stopped && this.stopAt !== undefined && this.answers >= this.stopAt.at && this.stopAt.stop())
        stopped = true;
      else if (this.pending.length > 0 && this.random() < 0.8) {
        const [settle] = this.pending.splice(Math.floor(this.random() * this.pending.length), 1);
        settle?.();
      } else this.later.shift()?.();
    }
    return finished;
  }
}

/**
 * The model tools, `alpha` and `beta` answering through the schedule `current()` gives when called (an
 * engine's tools keep asking the schedule of their own runs), and the latent `gamma`.
 */
export function modelTools(current: () => Schedule) {
  return [
    ...(["alpha", "beta"] as const).map((name) => ({
      name,
      description: `model tool ${name}: returns, branches or throws, by its arguments`,
      input: { type: "object" },
      ...(name === "beta" ? { outcomes: OUTCOMES } : {}),
      run: (args: Record<string, JsonValue>, ctx: ToolContext) => current().invoke(name, args, ctx),
    })),
    { name: "gamma", description: "latent: its value is the call's _output", input: { type: "object" } },
  ];
}

/** The engine's `confirm` hook of the model: it rejects calls whose `act` is `deny` (SPEC §7). */
export const modelConfirm = (call: { readonly params: Readonly<Record<string, unknown>> }) =>
  call.params.act === "deny"
    ? { action: "reject" as const, reason: "the host denies it" }
    : { action: "approve" as const };
