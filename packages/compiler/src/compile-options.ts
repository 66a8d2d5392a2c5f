import type { KindTable, LimitOverrides, Limits } from "@obelisk/core";
import { DEFAULT_KINDS, resolveLimits } from "@obelisk/core";
import type { CompileContext } from "./compiled-plan.js";
import type { PlanBuilderOptions } from "./plan-builder.js";

/** Options of `compile` and `createIncrementalCompiler`. */
export interface CompileOptions {
  /** What is known about the context (state snapshot, input, schemas, stored call outputs). Default: nothing. */
  readonly context?: CompileContext;
  /** Reference kinds (default: `input`, `state`, `calls`). */
  readonly kinds?: KindTable;
  /** Limits on the document (defaults: `DEFAULT_LIMITS`). */
  readonly limits?: LimitOverrides;
  /** First number of automatic ids `<tool>$<n>` (the thread's counter). Default 1. */
  readonly firstAutoIdNumber?: number;
  /** Call ids already used on the thread: automatic ids skip them. */
  readonly usedCallIds?: ReadonlySet<string>;
}

/** Options with defaults applied. */
export function resolveCompileOptions(options: CompileOptions): {
  readonly context: CompileContext;
  readonly kinds: KindTable;
  readonly limits: Limits;
  readonly builder: Omit<PlanBuilderOptions, "refuseInvalid">;
} {
  return {
    context: options.context ?? {},
    kinds: options.kinds ?? DEFAULT_KINDS,
    limits: resolveLimits(options.limits),
    builder: {
      firstAutoIdNumber: options.firstAutoIdNumber ?? 1,
      usedCallIds: options.usedCallIds ?? new Set(),
    },
  };
}
