import { describe, expect, it } from "vitest";
import type { CallSlot } from "./call-slot.js";
import { CommitGroup } from "./commit-group.js";

/** A member whose phase reads are counted (`reads.count`). */
function member(reads: { count: number }): CallSlot & { settle(): void } {
  let phase: CallSlot["phase"] = "held";
  return {
    get phase() {
      reads.count++;
      return phase;
    },
    settle() {
      phase = "settled";
    },
  } as unknown as CallSlot & { settle(): void };
}

describe("CommitGroup", () => {
  it("finds the first member that has not settled, whatever order they settle in", () => {
    const reads = { count: 0 };
    const group = new CommitGroup();
    const [a, b, c] = [member(reads), member(reads), member(reads)];
    group.members.push(a, b, c);
    expect(group.firstUnsettled()).toBe(a);
    b.settle();
    expect(group.firstUnsettled()).toBe(a);
    a.settle();
    expect(group.firstUnsettled()).toBe(c);
    c.settle();
    expect(group.firstUnsettled()).toBeUndefined();
  });

  it("reads each member's phase a bounded number of times over a run, not once per completion", () => {
    const reads = { count: 0 };
    const group = new CommitGroup();
    const members = Array.from({ length: 2000 }, () => member(reads));
    group.members.push(...members);
    for (const next of members) {
      expect(group.firstUnsettled()).toBe(next);
      next.settle();
    }
    expect(group.firstUnsettled()).toBeUndefined();
    // From the first member at every completion: ~2,000,000 reads (n writers of one path were O(n²)).
    expect(reads.count).toBeLessThan(3 * members.length);
  });
});
