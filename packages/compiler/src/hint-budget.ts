/** How many more did-you-means a plan may compute (each compares one name with a list of names). */
export class HintBudget {
  #left: number;

  /** A budget of `size` did-you-means. */
  constructor(readonly size: number) {
    this.#left = size;
  }

  /** True, with one fewer left, when one more may be computed. */
  take(): boolean {
    if (this.#left <= 0) return false;
    this.#left--;
    return true;
  }

  /** The whole budget again (streaming: each arriving call gets its own). */
  refill(): void {
    this.#left = this.size;
  }
}
