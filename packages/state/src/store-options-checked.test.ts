import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { refusal } from "./__fixtures__/file-fixtures.js";
import { createMemoryStore } from "./memory-store.js";
import { createSqliteStore } from "./sqlite-store.js";

const dir = mkdtempSync(join(tmpdir(), "obelisk-options-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const refused: [string, Record<string, unknown>, string][] = [
  [
    "cachedThreads -1",
    { cachedThreads: -1 },
    "cachedThreads must be a whole number >= 0 or Infinity, not -1",
  ],
  [
    "maxTombstones 1.5",
    { maxTombstones: 1.5 },
    "maxTombstones must be a whole number >= 0 or Infinity, not 1.5",
  ],
  ["recordResultBytes NaN", { recordResultBytes: Number.NaN }, "recordResultBytes must be a whole number"],
  ["busyTimeoutMs -5", { busyTimeoutMs: -5 }, "busyTimeoutMs must be a whole number >= 0, not -5"],
  [
    "retention maxVariables -1",
    { retention: { maxVariables: -1 } },
    "retention maxVariables must be a number >= 0",
  ],
  ["retention a string", { retention: "none" }, "retention must be an object of bounds"],
];

describe("a store's options out of range are USAGE before anything is opened", () => {
  it.each(refused)("SQLite, %s: USAGE, and no file is created", (label, options, message) => {
    const file = join(dir, `${label.replaceAll(" ", "-")}.db`);
    expect(refusal(() => createSqliteStore(file, options), "USAGE").message).toContain(message);
    expect(existsSync(file)).toBe(false);
  });

  it.each(refused.filter(([label]) => !label.startsWith("busy") && !label.startsWith("cached")))(
    "memory, %s: USAGE",
    (_label, options, message) => {
      expect(refusal(() => createMemoryStore(options), "USAGE").message).toContain(message);
    },
  );

  it("bounds at their edges are accepted: 0, Infinity, a retention field left undefined", async () => {
    const options = {
      cachedThreads: 0,
      maxTombstones: Number.POSITIVE_INFINITY,
      busyTimeoutMs: 0,
      retention: { maxVariables: 0, maxAgeMs: Number.POSITIVE_INFINITY, maxBytes: undefined },
    };
    await createSqliteStore(join(dir, "edges.db"), options).close();
    await createMemoryStore({
      ...options,
      cachedThreads: undefined,
      busyTimeoutMs: undefined,
    } as never).close();
  });
});
