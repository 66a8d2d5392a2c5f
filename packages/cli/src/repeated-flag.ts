import type { Command, Option } from "commander";
import { usageError } from "./usage-error.js";

/**
 * The flags documented as repeatable (README): `--limits` and `--retention` merge their values (a later
 * value of a name wins).
 * A variadic flag (`state summary --ref <reference...>`) is repeatable too: each value adds a reference.
 */
const REPEATABLE: ReadonlySet<string> = new Set(["--limits", "--retention"]);

/** True for a flag that takes one value: given twice, one of the two would be dropped. */
function takesOneValue(option: Option): boolean {
  const long = option.long ?? "";
  return (option.required || option.optional) && !option.variadic && !REPEATABLE.has(long);
}

/**
 * Makes `command` refuse a flag that takes one value given more than once (`--tools a.ts --tools b.ts`,
 * `--store x --store=y`): commander would keep the last one silently, and a run against another store, tools
 * module or thread than the user meant cannot be undone. USAGE (exit 2) naming the flag, raised before the
 * action (after commander's own checks: an unknown flag, a missing argument or flag is named first).
 * Boolean flags (`--fail-fast`, `--version`) and repeatable ones (see {@link REPEATABLE}) are left alone.
 */
export function refuseRepeatedFlags(command: Command): void {
  const given = new Map<Option, number>();
  for (const option of command.options) {
    if (!takesOneValue(option)) continue;
    command.on(`option:${option.name()}`, () => given.set(option, (given.get(option) ?? 0) + 1));
  }
  command.hook("preAction", () => {
    const twice = command.options.find((option) => (given.get(option) ?? 0) > 1);
    if (twice === undefined) return;
    const count = given.get(twice) ?? 0;
    throw usageError(
      `option '${twice.flags}' was given ${count === 2 ? "twice" : `${count} times`}: it takes one value`,
      undefined,
      "give it once: of the flags that take a value, only --limits, --retention, state summary's --ref and run/resume's --rerun may be repeated",
    );
  });
}
