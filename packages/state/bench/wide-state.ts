/**
 * Wide-state scenario: N commits on one thread, commit i writes `†state.n<i>` (a small object), so the
 * state root grows to N keys. Prints µs per commit per bucket of commits for memory and SQLite (file, WAL
 * NORMAL): with in-place writes the figure stays flat instead of growing with i.
 * Run: `pnpm bench:wide [N]` (default 10,000).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { commitOf, write } from "../src/conformance/commit-fixtures.js";
import { createMemoryStore } from "../src/memory-store.js";
import { createSqliteStore } from "../src/sqlite-store.js";
import type { StateStore } from "../src/store-types.js";

const total = Number(process.argv[2] ?? 10_000);
const buckets = 5;

function run(name: string, store: StateStore): void {
  const size = Math.ceil(total / buckets);
  const figures: string[] = [];
  for (let bucket = 0; bucket < buckets; bucket++) {
    const start = performance.now();
    const first = bucket * size;
    const last = Math.min(total, first + size);
    for (let i = first; i < last; i++) {
      const result = store.commitCall(
        commitOf({ callId: `c$${i}`, callHash: `h${i}`, writes: [write([`n${i}`], { i, text: "value" })] }),
      );
      if (!("ok" in result) || !result.ok) throw new Error(`commit ${i} failed`);
    }
    const micros = ((performance.now() - start) * 1000) / (last - first);
    figures.push(`${first}-${last - 1}: ${micros.toFixed(1)} µs`);
  }
  console.log(`${name.padEnd(28)} ${figures.join(" | ")}`);
}

const dir = mkdtempSync(join(tmpdir(), "obelisk-wide-"));
try {
  run("memory", createMemoryStore());
  const sqlite = createSqliteStore(join(dir, "wide.db"));
  run("sqlite file (WAL, NORMAL)", sqlite);
  await sqlite.close();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
