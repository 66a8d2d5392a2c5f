import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { bench, describe } from "vitest";
import { commitOf, THREAD, write } from "./conformance/commit-fixtures.js";
import { createMemoryStore } from "./memory-store.js";
import { createSqliteStore } from "./sqlite-store.js";
import type { StateStore } from "./store-types.js";
import { summarize } from "./variables/summarize.js";

const dir = mkdtempSync(join(tmpdir(), "obelisk-bench-"));
const memory = createMemoryStore();
const sqlite = createSqliteStore(join(dir, "bench.db"));
const counters = new Map<StateStore, number>();

/** One small commit: a record, one state write (rotating over 16 top-level paths) and its log entry and variable. */
function commitSmall(store: StateStore): void {
  const n = (counters.get(store) ?? 0) + 1;
  counters.set(store, n);
  const result = store.commitCall(
    commitOf({ callId: `c$${n}`, callHash: `h${n}`, writes: [write([`k${n % 16}`], { n })] }),
  );
  if (!("ok" in result) || !result.ok) throw new Error("commit failed");
}

describe("commitCall (one small call)", () => {
  bench("memory", () => commitSmall(memory));
  bench("sqlite file (WAL, synchronous=NORMAL)", () => commitSmall(sqlite));
});

const big = createMemoryStore();
const bigArray = Array.from({ length: 1_000_000 }, (_, index) => index);
for (let index = 0; index < 1000; index++) {
  const value = index % 100 === 0 ? bigArray : { index, text: "t".repeat(200) };
  big.commitCall(
    commitOf({
      callId: `v$${index}`,
      description: `variable ${index}`,
      writes: [write([`v${index}`], value)],
    }),
  );
}

describe("summarize (1,000 variables, 10 of them 1M-element arrays)", () => {
  bench("markdown, default budget", async () => {
    await summarize(big, THREAD);
  });
  bench("json, default budget", async () => {
    await summarize(big, THREAD, { format: "json" });
  });
});
