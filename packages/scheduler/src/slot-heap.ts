/** An entry of a {@link SlotHeap}: higher `priority` first, then lower `order` (who asked first). */
export interface Ranked {
  readonly priority: number;
  readonly order: number;
}

/** True when `a` goes before `b`. */
export function ranksBefore(a: Ranked, b: Ranked): boolean {
  return a.priority > b.priority || (a.priority === b.priority && a.order < b.order);
}

/** A binary heap of waiting calls, best first (O(log n) push and pop). */
export class SlotHeap<T extends Ranked> {
  private readonly items: T[] = [];

  /** Number of entries. */
  get size(): number {
    return this.items.length;
  }

  /** The best entry, left in place. */
  peek(): T | undefined {
    return this.items[0];
  }

  /** Adds an entry. */
  push(item: T): void {
    const items = this.items;
    let at = items.length;
    items.push(item);
    while (at > 0) {
      const parent = (at - 1) >> 1;
      const above = items[parent] as T;
      if (!ranksBefore(item, above)) break;
      items[at] = above;
      at = parent;
    }
    items[at] = item;
  }

  /** Removes and returns the best entry. */
  pop(): T | undefined {
    const items = this.items;
    const top = items[0];
    const last = items.pop();
    if (top === undefined || last === undefined || items.length === 0) return top;
    let at = 0;
    for (;;) {
      const left = 2 * at + 1;
      if (left >= items.length) break;
      const right = left + 1;
      const child = right < items.length && ranksBefore(items[right] as T, items[left] as T) ? right : left;
      if (!ranksBefore(items[child] as T, last)) break;
      items[at] = items[child] as T;
      at = child;
    }
    items[at] = last;
    return top;
  }
}
