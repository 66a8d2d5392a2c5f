import { execFile } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { asRunId, ObeliskError } from "@obelisk/core";
import { afterAll, describe, expect, it } from "vitest";
import { digest } from "./__fixtures__/file-fixtures.js";
import {
  commitOf,
  commitOk,
  manualClock,
  RUN,
  runRecord,
  THREAD,
  write,
} from "./conformance/commit-fixtures.js";
import { createSqliteStore } from "./sqlite-store.js";
import type { StateStore } from "./store-types.js";
import { getValue } from "./variables/get-value.js";
import { unsetValue } from "./variables/unset-value.js";

const dir = mkdtempSync(join(tmpdir(), "obelisk-readonly-"));
chmodSync(dir, 0o755);
let counter = 0;
const folders: string[] = [];
afterAll(() => {
  for (const folder of folders) chmodSync(folder, 0o755);
  rmSync(dir, { recursive: true, force: true });
});

const HOUR = 60 * 60 * 1000;
/** A store file in a fresh directory holding one run, two state writes and a stored call output. */
async function filledStore(now = Date.now): Promise<{ folder: string; file: string }> {
  const folder = join(dir, `case-${++counter}`);
  mkdirSync(folder, { mode: 0o755 });
  folders.push(folder);
  const file = join(folder, "state.db");
  const store = createSqliteStore(file, { now });
  await store.createRun(runRecord({ status: "succeeded" }));
  await commitOk(store, { callId: "a", writes: [write(["greeting"], "hi")] });
  await commitOk(store, { callId: "b", writes: [write(["n"], 1)], output: { o: 1 } });
  await store.close();
  return { folder, file };
}

/** Expects the refusal of a write to a read-only store: STORE_ERROR, `data.reason: "readonly"`, a hint. */
async function expectReadonly(attempt: () => unknown): Promise<void> {
  const error: unknown = await (async () => attempt())().then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(ObeliskError.is(error), String(error)).toBe(true);
  expect(error).toMatchObject({ code: "STORE_ERROR", data: { reason: "readonly" } });
  expect((error as ObeliskError).hint).toBeDefined();
}

describe("sqlite store opened read-only", () => {
  it("reads everything and refuses every write with STORE_ERROR (reason readonly), leaving the file as it was", async () => {
    const { file } = await filledStore();
    const before = digest(file);
    const store: StateStore = createSqliteStore(file, { readonly: true });
    expect(store.readState(THREAD)).toEqual({ greeting: "hi", n: 1 });
    expect((await store.listVariables(THREAD)).map((v) => v.reference)).toEqual([
      "†calls.b",
      "†state.n",
      "†state.greeting",
    ]);
    expect((await store.listRuns()).map((run) => run.runId)).toEqual([RUN]);
    expect(await store.listCallRecords(RUN)).toHaveLength(2);
    expect(await getValue(store, THREAD, "†calls.b")).toMatchObject({ found: true, value: { o: 1 } });
    // a thread the file lacks reads as empty (it is not created)
    expect(store.readState("other" as typeof THREAD)).toEqual({});
    await store.openThread(THREAD, { stateSchema: { type: "object" } });

    await expectReadonly(() => store.commitCall(commitOf({ callId: "c", writes: [write(["x"], 1)] })));
    await expectReadonly(() => store.commitCalls?.([commitOf({ callId: "d" })]));
    await expectReadonly(() => store.reset(THREAD));
    await expectReadonly(() => store.keepLastN(THREAD, 0));
    await expectReadonly(() => store.lockThread(THREAD));
    await expectReadonly(() => store.reserveCallNumbers(THREAD, 1));
    await expectReadonly(() => unsetValue(store, THREAD, "†state.n"));
    await expectReadonly(() => store.finishRun(RUN, "failed", "t"));
    await expectReadonly(() => store.appendRunCalls?.(RUN, [{ _tool: "t" }]));
    await expectReadonly(() =>
      store.createRun({
        runId: asRunId("run-2"),
        threadId: THREAD,
        planHash: "sha256:y",
        plan: [],
        input: {},
        status: "running",
        startedAt: "t",
      }),
    );
    // the refused lock left no in-process lock behind: reads go on
    expect(store.readState(THREAD)).toEqual({ greeting: "hi", n: 1 });
    await store.close();
    expect(digest(file)).toBe(before);
  });

  it("expires on read in what it shows (a tombstone), not in the file", async () => {
    const clock = manualClock();
    const { file } = await filledStore(clock.now);
    clock.advance(2 * HOUR);
    const readonly = createSqliteStore(file, { readonly: true, now: clock.now });
    await expect(getValue(readonly, THREAD, "†calls.b")).rejects.toMatchObject({ code: "REF_EVICTED" });
    expect(await readonly.getTombstone(THREAD, "†calls.b")).toMatchObject({ reason: "maxCallOutputAgeMs" });
    expect(await readonly.listVariables(THREAD)).toHaveLength(2);
    await readonly.close();
    const reopened = createSqliteStore(file, { readonly: true, now: manualClock().now });
    expect(await getValue(reopened, THREAD, "†calls.b")).toMatchObject({ found: true, value: { o: 1 } });
    await reopened.close();
  });

  it("expired state values stay hidden in what it shows, until a writer changes the thread", async () => {
    // its model, changed by expiry, used to look stale to readState (the file lacks the change): it was
    // reloaded from the file at once, and getValue found the expired value
    const clock = manualClock();
    const { file } = await filledStore(clock.now);
    clock.advance(2 * HOUR);
    const before = digest(file);
    const readonly = createSqliteStore(file, {
      readonly: true,
      now: clock.now,
      retention: { maxAgeMs: HOUR },
    });
    await expect(getValue(readonly, THREAD, "†state.greeting")).rejects.toMatchObject({
      code: "REF_EVICTED",
      data: { reason: "maxAgeMs" },
    });
    expect(await readonly.readState(THREAD)).toEqual({});
    expect(await readonly.listVariables(THREAD)).toEqual([]);
    expect(digest(file)).toBe(before);
    // a writer's change of the thread is seen: the reader reloads it (and expires only what is old)
    const writer = createSqliteStore(file, { now: clock.now });
    await commitOk(writer, { callId: "c", writes: [write(["greeting"], "again")] });
    await writer.close();
    expect(await getValue(readonly, THREAD, "†state.greeting")).toEqual({ found: true, value: "again" });
    await expect(getValue(readonly, THREAD, "†state.n")).rejects.toMatchObject({ code: "REF_EVICTED" });
    expect(await readonly.readState(THREAD)).toEqual({ greeting: "again" });
    await readonly.close();
  });

  it("refuses a missing file, and a file that is not an Obelisk store, with STORE_ERROR", async () => {
    expect(() => createSqliteStore(join(dir, "missing.db"), { readonly: true })).toThrow(
      expect.objectContaining({ code: "STORE_ERROR" }),
    );
    const empty = join(dir, "empty.db");
    writeFileSync(empty, "");
    expect(() => createSqliteStore(empty, { readonly: true })).toThrow(
      expect.objectContaining({
        code: "STORE_ERROR",
        data: expect.objectContaining({ reason: "not-a-store" }),
      }),
    );
  });
});

/**
 * A child process opens the store without options, reads, and tries a write. Root may write any file, so
 * as root the child runs as `nobody` (uid 65534), for whom the files are really read-only.
 */
const source = fileURLToPath(new URL("./sqlite-store.ts", import.meta.url));
const CHILD = `
import { createSqliteStore } from ${JSON.stringify(source)};
const store = createSqliteStore(process.argv[2]);
const result = { state: store.readState("thread-1"), runs: store.listRuns().map((run) => run.runId) };
try {
  await store.reset("thread-1");
  result.reset = "written";
} catch (error) {
  result.reset = { code: error.code, reason: error.data?.reason };
}
await store.close();
console.log(JSON.stringify(result));
`;

function openAsReader(file: string): Promise<Record<string, unknown>> {
  const script = join(dir, `child-${++counter}.mts`);
  writeFileSync(script, CHILD, { mode: 0o644 });
  const asNobody = process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : {};
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ["--conditions=@obelisk/source", "--import", "tsx", script, file],
      { ...asNobody, timeout: 60_000 },
      (error, stdout, stderr) => {
        if (error !== null) reject(new Error(`${error.message}\n${stderr}`));
        else resolve(JSON.parse(stdout) as Record<string, unknown>);
      },
    );
  });
}

describe("sqlite store on a file this process cannot write", () => {
  it.each([
    ["a read-only file (chmod 444) in a writable directory", false],
    ["a file in a read-only directory (chmod 555)", true],
  ])("%s: opens read-only, reads, refuses a write", async (_, readonlyDirectory) => {
    const { folder, file } = await filledStore();
    const before = digest(file);
    chmodSync(file, 0o444);
    chmodSync(folder, readonlyDirectory ? 0o555 : 0o777);
    const result = await openAsReader(file);
    expect(result).toEqual({
      state: { greeting: "hi", n: 1 },
      runs: [RUN],
      reset: { code: "STORE_ERROR", reason: "readonly" },
    });
    expect(digest(file)).toBe(before);
  });
});
