import type { Limits } from "@obelisk/core";
import type { CommonOptions } from "../common-options.js";
import { usageError } from "../usage-error.js";

/** The options of the `state` subcommands that read or edit variables (`summary`, `get`, `set`, …). */
export interface StateOptions extends CommonOptions {
  readonly last?: number;
  readonly ref?: string[];
  readonly value?: string;
  readonly offset?: number;
  readonly limit?: number;
  readonly budget?: number;
  /** `--limits` (`set`: the value is held to `maxValueBytes`; `set`, `get`, `unset`, `summary`: `--ref`'s depth). */
  readonly limits?: Partial<Limits>;
  /** `--lock-wait` (`set`, `unset`, `reset`, `keep`: they take the thread's lock). */
  readonly lockWait?: number;
}

/** The one `--ref` of a subcommand that takes one (USAGE when it is missing). */
export function singleRef(options: StateOptions): string {
  const ref = Array.isArray(options.ref) ? options.ref[0] : (options.ref as string | undefined);
  if (ref === undefined) throw usageError("missing --ref <reference>");
  return ref;
}
