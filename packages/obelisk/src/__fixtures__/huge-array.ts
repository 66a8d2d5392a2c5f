/** How many items of a {@link hugeArray} were read, and whether a read went past its bound. */
export interface ItemReads {
  reads: number;
  over: boolean;
}

/**
 * An array-like Proxy claiming a billion items (each read gives `item()`), counting the item reads: past
 * `bound` it notes `over` and throws, so code that reads on fails its test (even if it catches the
 * throw) instead of running for hours.
 */
export function hugeArray(
  bound: number,
  item: () => unknown = () => 1,
): { readonly value: unknown[]; readonly reads: ItemReads } {
  const reads: ItemReads = { reads: 0, over: false };
  const value = new Proxy([] as unknown[], {
    get(target, key) {
      if (key === "length") return 1e9;
      if (typeof key !== "string" || !/^\d+$/.test(key)) return Reflect.get(target, key);
      if (++reads.reads > bound) {
        reads.over = true;
        throw new Error(`read past ${bound} items`);
      }
      return item();
    },
  });
  return { value, reads };
}
