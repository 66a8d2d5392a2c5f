import type { DagNode } from "./plan-dag.js";
import type { TopologicalOrder } from "./topological-order.js";

/**
 * Streaming: the readers a cycle search starts from — those of `lists` labelled at most `bound` (the
 * others cannot lead back to the new call's predecessors), each once, in the lists' order — collected only
 * as far as a search asks. A search with a limit of n looks at its first n + 1 starts at most (more and it
 * stops unfinished), so n writers each sent after n readers of what they write, each needing a search,
 * cost what the searches do, not n readers each.
 */
export class RegionReaders {
  readonly #found: DagNode[] = [];
  readonly #seen = new Set<DagNode>();
  #list = 0;
  #item = 0;
  /** Readers looked at and left out (labelled after `bound`, or met before in another list). */
  skipped = 0;

  constructor(
    readonly lists: readonly (readonly DagNode[])[],
    readonly order: TopologicalOrder,
    readonly bound: number,
  ) {}

  /** The first `count` starts (all of them when there are fewer), in order: a list that only grows. */
  first(count: number): readonly DagNode[] {
    const found = this.#found;
    const lists = this.lists;
    while (found.length < count && this.#list < lists.length) {
      const list = lists[this.#list] as readonly DagNode[];
      if (this.#item >= list.length) {
        this.#list++;
        this.#item = 0;
        continue;
      }
      const reader = list[this.#item++] as DagNode;
      if (this.#seen.has(reader) || this.order.label(reader.position) > this.bound) this.skipped++;
      else {
        this.#seen.add(reader);
        found.push(reader);
      }
    }
    return found;
  }

  /** Every start. */
  all(): readonly DagNode[] {
    return this.first(Number.POSITIVE_INFINITY);
  }
}
