/**
 * Ids in the order they were recorded, each with its place (increasing): walked newest first from a cursor
 * or oldest first, reading only the ids passed over, never the whole list (decision 0104: a listing of one
 * thread's runs, or a page of all, stops at its limit). A removed id leaves a hole, skipped when walked and
 * dropped once holes are the greater part.
 */
export class RecentIds {
  private ids: string[] = [];
  private places: number[] = [];
  /** The live ids and their places (an id removed and recorded again has a new place). */
  private readonly live = new Map<string, number>();

  /** How many ids are held. */
  get size(): number {
    return this.live.size;
  }

  /** Records `id` at `place`, greater than every place recorded before. */
  add(id: string, place: number): void {
    if (this.live.get(id) === place) return;
    if (this.live.has(id)) this.delete(id);
    this.ids.push(id);
    this.places.push(place);
    this.live.set(id, place);
  }

  /** Forgets `id`. */
  delete(id: string): void {
    if (!this.live.delete(id)) return;
    if (this.ids.length > 64 && this.live.size * 2 < this.ids.length) this.compact();
  }

  /** The ids placed before `before`, newest first. */
  *newest(before = Number.POSITIVE_INFINITY): Generator<string> {
    for (let index = this.below(before) - 1; index >= 0; index--) {
      const id = this.ids[index] as string;
      if (this.live.get(id) === this.places[index]) yield id;
    }
  }

  /** The ids, oldest first. */
  *oldest(): Generator<string> {
    for (let index = 0; index < this.ids.length; index++) {
      const id = this.ids[index] as string;
      if (this.live.get(id) === this.places[index]) yield id;
    }
  }

  /** How many entries are placed before `before` (binary search: places increase). */
  private below(before: number): number {
    let low = 0;
    let high = this.places.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if ((this.places[middle] as number) < before) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  /** Drops the holes. */
  private compact(): void {
    const ids: string[] = [];
    const places: number[] = [];
    for (let index = 0; index < this.ids.length; index++) {
      const id = this.ids[index] as string;
      const place = this.places[index] as number;
      if (this.live.get(id) === place) {
        ids.push(id);
        places.push(place);
      }
    }
    this.ids = ids;
    this.places = places;
  }
}
