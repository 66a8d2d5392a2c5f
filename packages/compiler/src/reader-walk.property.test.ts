import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { DagNode, WriterGroup } from "./plan-dag.js";
import { MAX_READERS_RELATED, MAX_READERS_WALKED, walkReaders } from "./reader-walk.js";

/** The walk as stop 38 made it each time: every reader walked into a set, up to MAX_READERS_WALKED. */
function walkedIntoASet(groups: readonly WriterGroup[], callId: string) {
  const found = new Set<string>();
  const added: boolean[] = [];
  let count = 0;
  for (const group of groups) {
    if (count === MAX_READERS_WALKED) break;
    const before = found.size;
    for (let r = 0; r < group.readers.length && count < MAX_READERS_WALKED; r++, count++) {
      const id = (group.readers[r] as DagNode).id;
      if (id !== callId) found.add(id);
    }
    added.push(found.size > before);
  }
  return {
    added,
    full: count === MAX_READERS_WALKED,
    count: found.size,
    related: [...found].slice(0, MAX_READERS_RELATED),
  };
}

/** Readers added to some of the groups (each reader to every group in `to`), or a walk of some of them. */
const stepArb = fc.oneof(
  fc.record({
    kind: fc.constant("readers" as const),
    to: fc.uniqueArray(fc.nat(5), { minLength: 1, maxLength: 4 }),
    many: fc.oneof(
      fc.integer({ min: 1, max: 3 }),
      fc.integer({ min: 1, max: 3 }),
      fc.integer({ min: 200, max: 900 }),
    ),
  }),
  fc.record({
    kind: fc.constant("walk" as const),
    groups: fc.uniqueArray(fc.nat(5), { minLength: 2, maxLength: 5 }),
    // the new call, appended last to some of the groups walked, as the builder appends a writer that reads them
    call: fc.uniqueArray(fc.nat(5), { maxLength: 2 }),
  }),
);

describe("the STREAM_ORDER warning's reader walk (kept step by step)", () => {
  it("counts, names and marks the same readers as a walk into a set each time", () => {
    fc.assert(
      fc.property(fc.array(stepArb, { minLength: 1, maxLength: 40 }), (steps) => {
        // only `readers` is read from a group; a reader's `id` and `position` (the order it was added in)
        const groups = Array.from(
          { length: 6 },
          () => ({ readers: [] as DagNode[] }) as unknown as WriterGroup,
        );
        let position = 0;
        const node = () => ({ id: `c${position}`, position: position++ }) as unknown as DagNode;
        for (const step of steps) {
          if (step.kind === "readers") {
            for (let i = 0; i < step.many; i++) {
              const reader = node();
              for (const g of step.to) (groups[g] as WriterGroup).readers.push(reader);
            }
            continue;
          }
          const call = node();
          for (const g of step.call)
            if (step.groups.includes(g)) (groups[g] as WriterGroup).readers.push(call);
          const walked = step.groups.map((g) => groups[g] as WriterGroup);
          expect(walkReaders(walked, call.id)).toEqual(walkedIntoASet(walked, call.id));
        }
      }),
      { numRuns: 300, seed: 39 },
    );
  });
});
