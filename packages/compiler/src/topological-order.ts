/** Labels are integers below 2^52 (exact in a double). */
const UNIVERSE = 2 ** 52;
/** Density bound of the relabelling: a label range of size 2^i may hold at most (2 / 1.4)^i nodes. */
const SPREAD = 2 / 1.4;
/** The label before every node (the list's head). */
const HEAD = -1;

/**
 * Streaming: a topological order of the compiled calls, kept as calls arrive (by `DagNode.position`):
 * each call has an integer label, and every edge goes from a smaller label to a larger one. Inserting a
 * call after another takes the middle of the gap between their labels; when there is none, the smallest
 * aligned label range around it that is sparse enough is relabelled evenly (list labelling, amortised
 * O(log n) per insertion; Bender et al., "Two simplified algorithms for maintaining order in a list").
 */
export class TopologicalOrder {
  readonly #label: number[] = [];
  readonly #next: number[] = [];
  readonly #prev: number[] = [];
  #first = HEAD;
  #last = HEAD;
  /** Labels changed by relabelling so far (a measure of the work done, for tests). */
  relabelled = 0;

  /** The label of the call at `position` (larger: later in the order). */
  label(position: number): number {
    return this.#label[position] as number;
  }

  /** The call right before the one at `position` (`-1`: none). */
  previous(position: number): number {
    return this.#prev[position] as number;
  }

  /** Places the call at `position` last (after every call placed so far). */
  append(position: number): void {
    this.insertAfter(position, this.#last);
  }

  /** Places the call at `position` right after the call at `after` (`-1`: first). */
  insertAfter(position: number, after: number): void {
    const next = after === HEAD ? this.#first : (this.#next[after] as number);
    this.#prev[position] = after;
    this.#next[position] = next;
    if (after === HEAD) this.#first = position;
    else this.#next[after] = position;
    if (next === HEAD) this.#last = position;
    else this.#prev[next] = position;
    const low = after === HEAD ? HEAD : (this.#label[after] as number);
    const high = next === HEAD ? UNIVERSE : (this.#label[next] as number);
    if (high - low >= 2) this.#label[position] = low + Math.floor((high - low) / 2);
    else this.#spread(position, after === HEAD ? next : after);
  }

  /**
   * Moves the calls at `positions` (in order of their labels) right after the call at `after`, keeping
   * their order.
   */
  moveAfter(positions: readonly number[], after: number): void {
    let at = after;
    for (const position of positions) {
      this.#unlink(position);
      this.insertAfter(position, at);
      at = position;
    }
  }

  #unlink(position: number): void {
    const prev = this.#prev[position] as number;
    const next = this.#next[position] as number;
    if (prev === HEAD) this.#first = next;
    else this.#next[prev] = next;
    if (next === HEAD) this.#last = prev;
    else this.#prev[next] = prev;
  }

  /**
   * Labels `position` (just linked next to `anchor`, which has a label) by relabelling evenly the smallest
   * aligned label range around `anchor` whose nodes, `position` included, are few enough.
   */
  #spread(position: number, anchor: number): void {
    const labels = this.#label;
    const anchorLabel = labels[anchor] as number;
    let from = this.#prev[position] === anchor ? anchor : position;
    let to = from === anchor ? position : anchor;
    let count = 2;
    let size = 1;
    let base = anchorLabel;
    let capacity = 1;
    while (size < UNIVERSE) {
      size *= 2;
      capacity *= SPREAD;
      base = Math.floor(anchorLabel / size) * size;
      for (
        let p = this.#prev[from] as number;
        p !== HEAD && (labels[p] as number) >= base;
        p = this.#prev[p] as number
      ) {
        from = p;
        count++;
      }
      for (
        let n = this.#next[to] as number;
        n !== HEAD && (labels[n] as number) < base + size;
        n = this.#next[n] as number
      ) {
        to = n;
        count++;
      }
      if (count <= capacity) break;
    }
    if (count > size) throw new Error("topological order: more calls than labels");
    const step = Math.floor(size / count);
    let label = base;
    for (let p = from; ; p = this.#next[p] as number) {
      labels[p] = label;
      label += step;
      if (p === to) break;
    }
    this.relabelled += count;
  }
}
