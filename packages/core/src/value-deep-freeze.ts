/** Freezes a value and everything reachable from it (own properties; iterative, cycle-safe). Returns it. */
export function deepFreeze<T>(value: T): T {
  const seen = new Set<object>();
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const current = stack.pop();
    if ((typeof current !== "object" && typeof current !== "function") || current === null) continue;
    if (seen.has(current)) continue;
    seen.add(current);
    Object.freeze(current);
    for (const key of Reflect.ownKeys(current)) {
      const descriptor = Object.getOwnPropertyDescriptor(current, key);
      if (descriptor !== undefined && "value" in descriptor) stack.push(descriptor.value);
    }
  }
  return value;
}
