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
    const { cachedThreads: _cached, busyTimeoutMs: _busy, ...common } = options;
    await createMemoryStore(common).close();
  });
});

/** The refusal of `open`, as `code: message (hint)`, with no file left behind when it names one. */
function refusedText(open: () => unknown): string {
  const error = refusal(open, "USAGE");
  return `${error.message} (${error.hint ?? "no hint"})`;
}

describe("a store factory's options are checked at creation (review s33r F6, F13)", () => {
  const sqlite = (options: unknown) => () => createSqliteStore(join(dir, "checked.db"), options as never);
  const memory = (options: unknown) => () => createMemoryStore(options as never);

  it.each([
    ["staleMs 0", { staleMs: 0 }, "lock.staleMs must be a number of ms > 0"],
    ["staleMs -1", { staleMs: -1 }, "lock.staleMs must be a number of ms > 0"],
    ["staleMs NaN", { staleMs: Number.NaN }, "not NaN"],
    ["heartbeatMs 0", { heartbeatMs: 0 }, "lock.heartbeatMs must be a number of ms > 0"],
    ["heartbeatMs Infinity", { heartbeatMs: Number.POSITIVE_INFINITY }, "not Infinity"],
    ["pollMs -5", { pollMs: -5 }, "lock.pollMs must be a number of ms > 0"],
    ["pollMs a string", { pollMs: "5" }, 'not "5"'],
    [
      "heartbeatMs 60,000 (default staleMs)",
      { heartbeatMs: 60_000 },
      "lock.heartbeatMs (60000) must be less than lock.staleMs (30000)",
    ],
    [
      "staleMs 10 (default heartbeatMs)",
      { staleMs: 10 },
      "lock.heartbeatMs (5000) must be less than lock.staleMs (10)",
    ],
    ["heartbeatMs = staleMs", { heartbeatMs: 1000, staleMs: 1000 }, "must be less than lock.staleMs"],
  ])("SQLite lock, %s: USAGE, and no file is created", (_label, lock, message) => {
    expect(refusedText(sqlite({ lock }))).toContain(message);
    expect(existsSync(join(dir, "checked.db"))).toBe(false);
  });

  it("a heartbeat at or past staleMs says why, and that every process on the file must agree", () => {
    expect(refusedText(sqlite({ lock: { staleMs: 10 } }))).toContain(
      "staleMs must exceed heartbeatMs with margin (the defaults: a heartbeat every 5000 ms, stale after 30000 ms), or another process takes a live run's lock over as stale; every process that opens the file must use the same lock options",
    );
  });

  it.each([
    [
      "an unknown lock option",
      sqlite({ lock: { stale: 5 } }),
      'unknown lock option "stale" (the known ones are pollMs, heartbeatMs, staleMs)',
    ],
    ["a misspelt lock option", sqlite({ lock: { hearbeatMs: 5 } }), '(did you mean "heartbeatMs"?)'],
    [
      "lock a string",
      sqlite({ lock: "x" }),
      'lock must be an object ({ pollMs, heartbeatMs, staleMs }), not "x"',
    ],
    [
      "a top-level staleMs",
      sqlite({ staleMs: 60_000 }),
      'unknown option for createSqliteStore: "staleMs" (staleMs is a lock option: give it inside lock',
    ],
    [
      "an unknown SQLite option",
      sqlite({ retension: {} }),
      'unknown option for createSqliteStore: "retension" (did you mean "retention"?)',
    ],
    [
      "an unknown memory option",
      memory({ retension: {} }),
      'unknown option for createMemoryStore: "retension" (did you mean "retention"?)',
    ],
    [
      "a SQLite option given to the memory store",
      memory({ cachedThreads: 5 }),
      "cachedThreads is an option of createSqliteStore: the memory store has no such option",
    ],
    ["an unknown retention field", memory({ retention: { maxVariable: 1 } }), 'did you mean "maxVariables"?'],
    ["a retention field given a string", memory({ retention: { maxCallOutputs: "5" } }), 'not "5"'],
    ["SQLite now: 5", sqlite({ now: 5 }), "now must be a clock (a function answering milliseconds"],
    ["memory now: 5", memory({ now: 5 }), "now must be a clock"],
    ["memory options null", memory(null), "createMemoryStore: the options must be an object, not null"],
    ["SQLite options a number", sqlite(7), "createSqliteStore: the options must be an object, not 7"],
    ["durability a typo", sqlite({ durability: "ful" }), 'durability must be "normal" or "full", not "ful"'],
    ["readonly a string", sqlite({ readonly: "yes" }), 'readonly must be true or false, not "yes"'],
    ["create a typo", sqlite({ create: "if_empty" }), 'create must be true, false or "if-empty"'],
  ])("%s: USAGE with the option named", (_label, open, message) => {
    expect(refusedText(open)).toContain(message);
    expect(existsSync(join(dir, "checked.db"))).toBe(false);
  });

  it("a file that is no path (a number, an empty string) is USAGE, not a raw TypeError", () => {
    expect(refusedText(() => createSqliteStore(5 as never))).toBe(
      'createSqliteStore: the file must be a path, not 5 (give the store file\'s path, or ":memory:" for a database in memory (it ends with the store))',
    );
    expect(refusedText(() => createSqliteStore(""))).toContain("not an empty string");
  });

  it("lock options inside their bounds open the store", async () => {
    await createSqliteStore(join(dir, "lock-ok.db"), {
      lock: { pollMs: 1, heartbeatMs: 1000, staleMs: 1001 },
    }).close();
    await createSqliteStore(join(dir, "lock-default-heartbeat.db"), { lock: { staleMs: 5001 } }).close();
  });
});
