import { asRunId } from "@obelisk/core";
import { describe, expect, it } from "vitest";
import { commitOf, write } from "../conformance/commit-fixtures.js";
import type { CallRecord, WriteLogEntry } from "../store-types.js";
import {
  appendCommit,
  appendEntries,
  compactLog,
  newLog,
  readEntries,
  recordsHolding,
} from "./memory-log.js";

/** Commits 1,200 entries (three chunks of 512): key `k<i % 3>` at seq 1–1,200, record i each, one unset. */
function threeChunks(): { log: ReturnType<typeof newLog>; records: CallRecord[] } {
  const log = newLog();
  const records: CallRecord[] = [];
  for (let index = 0; index < 1200; index++) {
    const seq = index + 1;
    if (seq === 700) {
      const unset: WriteLogEntry = {
        seq,
        runId: asRunId("obelisk.unset"),
        call: { id: "u", tool: "obelisk.unset" },
        date: "d",
        write: { ...write(["k0"], null), method: "set" },
        op: "unset",
      };
      appendEntries(log, [unset]);
      continue;
    }
    const commit = commitOf({ callId: `c${index}`, writes: [write([`k${index % 3}`], index)] });
    records.push(commit.record);
    appendCommit(
      log,
      { firstSeq: seq, date: "d", writes: commit.writes, bytes: 3, newKeys: false },
      commit.record,
    );
  }
  return { log, records };
}

describe("memory log in chunks (stop 29)", () => {
  it("reads entries back in order across chunks, lifecycle entries as they were given", () => {
    const { log, records } = threeChunks();
    expect(log.length).toBe(3);
    const entries = readEntries(log);
    expect(entries.map((entry) => entry.seq)).toEqual(Array.from({ length: 1200 }, (_, index) => index + 1));
    expect(entries[511]?.write).toEqual(write(["k1"], 511));
    expect(entries[512]?.write).toEqual(write(["k2"], 512));
    expect(entries[512]?.call).toEqual({ id: "c512", tool: "tool" });
    expect(entries[699]?.op).toBe("unset");
    expect(recordsHolding(log).size).toBe(records.length);
  });

  it("compacts across chunks: each key keeps its last write, the records of the others are emptied", () => {
    const { log, records } = threeChunks();
    const { log: compacted, emptied, holding } = compactLog(log);
    const entries = readEntries(compacted);
    // top-level keys written again are covered: only their last writes stay
    expect(entries.map((entry) => entry.seq)).toEqual([1198, 1199, 1200]);
    expect(entries.map((entry) => entry.write.value)).toEqual([1197, 1198, 1199]);
    expect(holding.size).toBe(3);
    expect(emptied.length).toBe(records.length - 3);
  });
});
