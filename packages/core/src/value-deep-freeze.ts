/**
 * Objects known to be deeply frozen: frozen, and so is everything reachable through their data properties.
 * A frozen object's properties can never change, so membership stays true for the object's lifetime.
 */
const deeplyFrozen = new WeakSet<object>();

/**
 * Freezes a value and everything reachable from it (own properties; iterative, cycle-safe). Returns it.
 * Objects a previous call froze whole are not walked again: freezing a thread's new state snapshot costs
 * its new nodes, not the whole state (the runner freezes the state it is given at the start of every run).
 */
export function deepFreeze<T>(value: T): T {
  if ((typeof value !== "object" && typeof value !== "function") || value === null) return value;
  if (deeplyFrozen.has(value)) return value;
  const seen = new Set<object>();
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const current = stack.pop();
    if ((typeof current !== "object" && typeof current !== "function") || current === null) continue;
    if (seen.has(current) || deeplyFrozen.has(current)) continue;
    seen.add(current);
    Object.freeze(current);
    for (const key of Reflect.ownKeys(current)) {
      const descriptor = Object.getOwnPropertyDescriptor(current, key);
      if (descriptor !== undefined && "value" in descriptor) stack.push(descriptor.value);
    }
  }
  // Marked only once the whole walk succeeded (a hostile object may throw half-way).
  for (const object of seen) deeplyFrozen.add(object);
  return value;
}

/**
 * True when `value` is known to be deeply frozen (`deepFreeze` froze it, or `markDeeplyFrozen` recorded
 * it): O(1), where `Object.isFrozen` walks every property of a large (dictionary-mode) object.
 */
export function isKnownDeeplyFrozen(value: object): boolean {
  return deeplyFrozen.has(value);
}

/**
 * Records that `value` is deeply frozen without walking it, for a caller that guarantees it (a store whose
 * frozen nodes only ever hold frozen nodes): `deepFreeze` then returns it at once. Ignored when `value` is
 * not frozen itself.
 */
export function markDeeplyFrozen(value: object): void {
  if (Object.isFrozen(value)) deeplyFrozen.add(value);
}

/**
 * {@link markDeeplyFrozen} without its check, for a copy its maker froze node by node (`toJsonValue`'s):
 * `Object.isFrozen` walks every property of a large (dictionary-mode) object. Not exported by the package.
 */
export function markCopyDeeplyFrozen(value: object): void {
  deeplyFrozen.add(value);
}
