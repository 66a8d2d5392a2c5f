/**
 * Appends `items` to `target` one at a time. A spread `push(...items)` passes every item as an argument:
 * past ~120,000 items (a call with that many warnings) it overflows the stack.
 */
export function appendAll<T>(target: T[], items: readonly T[]): void {
  for (let index = 0; index < items.length; index++) target.push(items[index] as T);
}
