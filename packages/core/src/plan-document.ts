import type { JsonObject } from "./json-value.js";

/** Which accepted form the document had (SPEC §5). */
export type PlanForm = "plan" | "calls" | "array" | "call";

/** One call as submitted (not yet validated), with where it sits in the document. */
export interface PlanCallSource {
  /** The raw value of the call (may be anything: validation decides). */
  readonly value: unknown;
  /** JSON Pointer of the call in the submitted document (`/plan/0`, `/calls/0`, `/0`, or `""`). */
  readonly pointer: string;
  /** 0-based position in plan order. */
  readonly index: number;
}

/** A plan document normalized from any accepted form. */
export interface PlanDocument {
  /** The form the document was submitted in. */
  readonly form: PlanForm;
  /** The calls, in plan order. */
  readonly calls: readonly PlanCallSource[];
  /** Optional plan id. */
  readonly id?: string;
  /** Optional plan description. */
  readonly description?: string;
  /** Optional JSON Schema the run's input must satisfy. */
  readonly inputSchema?: JsonObject;
  /** The parsed document as submitted (what pointers point into). */
  readonly source: unknown;
}

/** A hash of a plan's canonical JSON: `sha256:<64 hex>`. */
export type PlanHash = `sha256:${string}`;
