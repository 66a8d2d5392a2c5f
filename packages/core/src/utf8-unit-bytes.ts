import { isLowSurrogate } from "./utf8-length.js";

/**
 * The UTF-8 bytes one UTF-16 unit adds to text whose previous unit is `previous`, for text counted a unit
 * at a time: a surrogate pair is 3 + 1 (4 in all) and a lone surrogate 3, as `utf8Length` counts them.
 */
export function utf8UnitBytes(code: number, previous: number): number {
  if (code < 0x80) return 1;
  if (code < 0x800) return 2;
  return isLowSurrogate(code) && previous >= 0xd800 && previous <= 0xdbff ? 1 : 3;
}
