import type { DagNode } from "./plan-dag.js";

/** An item of a list a search starts from: a call, or a link to its writer, by position among the calls. */
interface Positioned {
  readonly position: number;
}

/**
 * Streaming: the calls a cycle search starts from — those of `lists` (calls, or links to writers) that are
 * `inside` its region, each once, in the lists' order — collected only as far as a search asks. A search
 * with a limit of n looks at its first n + 1 starts at most (more and it stops unfinished), so n writers
 * each sent after n readers of what they write, or each reading what n calls write, each needing a search,
 * cost what the searches do, not n starts each.
 */
export class RegionStarts {
  readonly #found: DagNode[] = [];
  readonly #seen = new Set<DagNode>();
  #list = 0;
  #item = 0;
  /** Calls looked at and left out (outside the region, or met before in another list). */
  skipped = 0;

  constructor(
    readonly lists: readonly (readonly Positioned[])[],
    readonly nodes: readonly DagNode[],
    readonly inside: (node: DagNode) => boolean,
  ) {}

  /** The first `count` starts (all of them when there are fewer), in order: a list that only grows. */
  first(count: number): readonly DagNode[] {
    const found = this.#found;
    const lists = this.lists;
    while (found.length < count && this.#list < lists.length) {
      const list = lists[this.#list] as readonly Positioned[];
      if (this.#item >= list.length) {
        this.#list++;
        this.#item = 0;
        continue;
      }
      const node = this.nodes[(list[this.#item++] as Positioned).position] as DagNode;
      if (this.#seen.has(node) || !this.inside(node)) this.skipped++;
      else {
        this.#seen.add(node);
        found.push(node);
      }
    }
    return found;
  }

  /** Every start. */
  all(): readonly DagNode[] {
    return this.first(Number.POSITIVE_INFINITY);
  }
}
