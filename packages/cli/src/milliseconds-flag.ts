import { InvalidArgumentError } from "commander";
import { parseCount } from "./common-options.js";
import { UNIT_MS, WITH_UNIT } from "./duration-units.js";

/**
 * The parser of a flag that counts milliseconds (`runs prune --older-than`, `threads list --idle-for`): a
 * whole number; a duration with a unit (`7d`) is refused with the milliseconds it means (review s41 r2 #15:
 * the refusal said only "expected a whole number").
 */
export function millisecondsFlag(flag: string): (value: string) => number {
  return (value) => {
    try {
      return parseCount(value);
    } catch (error) {
      const unit = WITH_UNIT.exec(value);
      if (unit === null || !(error instanceof InvalidArgumentError)) throw error;
      const ms = Math.round(Number(unit[1]) * (UNIT_MS[unit[2] ?? ""] ?? 1));
      throw new InvalidArgumentError(
        `${error.message} (${flag} counts milliseconds: for ${value.trim()}, ${flag} ${ms})`,
      );
    }
  };
}
