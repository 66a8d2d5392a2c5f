/** Grammar of a call id given in `_id` (SPEC §4): the reference `name` grammar without `$`. */
export const CALL_ID_PATTERN: RegExp = /^[A-Za-z_][A-Za-z0-9_-]*$/;

/** True when `id` is a valid user-given call id (`^[A-Za-z_][A-Za-z0-9_-]*$`). */
export function isValidCallId(id: string): boolean {
  return CALL_ID_PATTERN.test(id);
}
