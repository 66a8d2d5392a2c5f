/** How much of a counting Proxy a walk read, and whether it read past the bound (the Proxy then threw). */
export interface ReadCount {
  reads: number;
  over: boolean;
}

/** Counts one read; past `bound`, notes it and throws, so a walk that reads on fails its test, not hangs. */
function counted(count: ReadCount, bound: number): void {
  if (++count.reads > bound) {
    count.over = true;
    throw new Error(`read past ${bound} items`);
  }
}

/**
 * An array-like Proxy claiming `claimed` items (each read gives `item()`), counting the item reads in
 * `count` (a walk that catches the throw past `bound` still shows it: `over`).
 */
export function hugeArray(
  bound: number,
  item: () => unknown = () => 1,
  claimed = 1e9,
): { readonly value: unknown[]; readonly count: ReadCount } {
  const count: ReadCount = { reads: 0, over: false };
  const value = new Proxy([] as unknown[], {
    get(target, key) {
      if (key === "length") return claimed;
      if (typeof key === "string" && /^\d+$/.test(key)) {
        counted(count, bound);
        return item();
      }
      return Reflect.get(target, key);
    },
  });
  return { value, count };
}

/** An object Proxy with `keys` keys `k0`, `k1`… each holding 1, counting the member reads in `count`. */
export function manyKeys(
  bound: number,
  keys: number,
): { readonly value: Record<string, unknown>; readonly count: ReadCount } {
  const count: ReadCount = { reads: 0, over: false };
  const names = Array.from({ length: keys }, (_, index) => `k${index}`);
  const value = new Proxy({} as Record<string, unknown>, {
    ownKeys: () => names,
    getOwnPropertyDescriptor: () => ({ value: 1, enumerable: true, configurable: true, writable: true }),
    get(_target, key) {
      counted(count, bound);
      return typeof key === "string" ? 1 : undefined;
    },
  });
  return { value, count };
}
