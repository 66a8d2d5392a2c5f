import { afterEach, describe, expect, it, vi } from "vitest";
import { exampleTools } from "./__fixtures__/tools.js";
import { createIncrementalCompiler } from "./incremental-compiler.js";
import { MAX_READERS_RELATED, MAX_READERS_WALKED } from "./reader-walk.js";
import { createToolRegistry } from "./tool-registry.js";
import { TopologicalOrder } from "./topological-order.js";

const registry = createToolRegistry(exampleTools);
const reader = (id: string) => ({
  _tool: "log",
  _id: id,
  message: "{†state.a}",
  _outputPath: `†state.r.${id}`,
});
const writer = (id: string) => ({ _tool: "log", _id: id, message: id, _outputPath: `†state.a.${id}` });
/** A reader of †state.a and †state.a.x. */
const both = (id: string) => ({ ...reader(id), message: "{†state.a} {†state.a.x}" });
/** A merge writer of †state.a (it commits after the earlier ones; its value is an object: decision 0114). */
const merge = (id: string) => ({
  _tool: "fetchUser",
  _id: id,
  userId: id,
  _outputPath: "†state.a",
  _outputMethod: "merge",
});
const ids = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}${i}`);
const fill = (n: number, value: string) => Array.from({ length: n }, () => value);

/** Streams `n` readers of †state.a, then `n` writers of a key below it; each writer's add answer. */
function readersThenWriters(n: number) {
  const compiler = createIncrementalCompiler(registry);
  for (const id of ids("r", n)) expect(compiler.addCall(reader(id)).ok).toBe(true);
  const answers = ids("w", n).map((id) => compiler.addCall(writer(id)));
  compiler.close();
  return answers;
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("a stream's writers sent after many readers of their path", () => {
  it("list at most MAX_READERS_RELATED readers in each STREAM_ORDER warning, and count them all", () => {
    const answers = readersThenWriters(300);
    // the first writer had no writer before it: its readers wait for it
    expect(answers[0]?.diagnostics).toEqual([]);
    const last = answers[299]?.diagnostics ?? [];
    expect(last).toHaveLength(1);
    expect(last[0]?.code).toBe("STREAM_ORDER");
    expect(last[0]?.related).toEqual(ids("r", MAX_READERS_RELATED));
    expect(last[0]?.message).toContain('calls "r0", "r1", "r2", "r3", "r4" and 295 more added before it');
  });

  it("do not look at every reader once per writer (the order check of a call with no predecessor)", () => {
    const label = vi.spyOn(TopologicalOrder.prototype, "label");
    const answers = readersThenWriters(400);
    expect(answers.every((answer) => answer.ok)).toBe(true);
    // a scan of the readers per writer: ~160,000 labels read
    expect(label.mock.calls.length).toBeLessThan(4_000);
  });

  it("do not look at every reader once per writer that has a predecessor (merge writers of a path read twice)", () => {
    const compiler = createIncrementalCompiler(registry);
    for (const id of ids("r", 400)) compiler.addCall({ ...reader(id), message: "{†state.a} {†state.a.x}" });
    const label = vi.spyOn(TopologicalOrder.prototype, "label");
    // each merge writer commits after the earlier ones: a predecessor, so its check finds the earliest reader
    for (const id of ids("w", 400))
      expect(
        compiler.addCall({
          _tool: "fetchUser",
          _id: id,
          userId: id,
          _outputPath: "†state.a",
          _outputMethod: "merge",
        }).ok,
      ).toBe(true);
    // a scan of both paths' readers per writer: ~320,000 labels read
    expect(label.mock.calls.length).toBeLessThan(8_000);
  });

  it("do not look at every reader once per writer whose predecessor came after them (a search each)", () => {
    const compiler = createIncrementalCompiler(registry);
    for (const id of ids("r", 2_000)) compiler.addCall(reader(id));
    const label = vi.spyOn(TopologicalOrder.prototype, "label");
    for (const id of ids("w", 50)) {
      // z goes last in the order (nothing reads it), after the readers: the writer that reads it needs a search
      expect(
        compiler.addCall({ _tool: "log", _id: `z${id}`, message: id, _outputPath: `†state.z${id}` }).ok,
      ).toBe(true);
      expect(compiler.addCall({ ...writer(id), message: `{†state.z${id}}` }).ok).toBe(true);
    }
    // each search started from all 2,000 readers: ~200,000 labels read
    expect(label.mock.calls.length).toBeLessThan(10_000);
  });

  it("do not look at every writer of what a call reads once per such call", () => {
    const compiler = createIncrementalCompiler(registry);
    // r0 reads †state.b, which every later reader of †state.a writes into: each of them needs a check
    compiler.addCall({ _tool: "log", _id: "r0", message: "{†state.b}" });
    for (const id of ids("w", 600)) compiler.addCall(writer(id));
    const label = vi.spyOn(TopologicalOrder.prototype, "label");
    for (const id of ids("c", 600))
      expect(compiler.addCall({ ...reader(id), _outputPath: `†state.b.${id}` }).ok).toBe(true);
    // the order label of every writer of †state.a per reader: ~360,000
    expect(label.mock.calls.length).toBeLessThan(10_000);
  });

  it("walk at most MAX_READERS_WALKED readers of several paths, and say the count is a lower bound", () => {
    const compiler = createIncrementalCompiler(registry);
    for (const id of ids("r", 3_000)) compiler.addCall(both(id));
    expect(compiler.addCall(merge("w0")).diagnostics).toEqual([]);
    const add = vi.spyOn(Set.prototype, "add");
    const [warning] = compiler.addCall(merge("w1")).diagnostics;
    // one walk of both paths' readers: 6,000 adds
    expect(add.mock.calls.length).toBeLessThan(MAX_READERS_WALKED + 500);
    expect(warning?.code).toBe("STREAM_ORDER");
    expect(warning?.message).toContain(
      'writes †state.a, †state.a.x, which calls "r0", "r1", "r2", "r3", "r4" and at least 2995 more',
    );
    expect(warning?.related).toHaveLength(MAX_READERS_RELATED);
  });

  it("walk the readers of several paths once for all the merge writers sent after them, not once each", () => {
    const compiler = createIncrementalCompiler(registry);
    for (const id of ids("r", 3_000)) compiler.addCall(both(id));
    const add = vi.spyOn(Set.prototype, "add");
    const warnings = ids("w", 200).map((id) => compiler.addCall(merge(id)).diagnostics);
    // a walk of MAX_READERS_WALKED readers per writer: 199,000 adds
    expect(add.mock.calls.length).toBeLessThan(2 * MAX_READERS_WALKED);
    expect(warnings[0]).toEqual([]);
    for (const [warning] of warnings.slice(1))
      expect(warning?.message).toContain('which calls "r0", "r1", "r2", "r3", "r4" and at least 2995 more');
    // a reader sent since, past the readers walked: counted, still without a walk
    compiler.addCall({ ...reader("r3000"), message: "{†state.a}" });
    expect(compiler.addCall(merge("v0")).diagnostics[0]?.message).toContain("and at least 2996 more");
    expect(add.mock.calls.length).toBeLessThan(2 * MAX_READERS_WALKED);
  });

  it("count the readers again once the readers walked are not the same", () => {
    const compiler = createIncrementalCompiler(registry);
    for (const id of ids("r", 10)) compiler.addCall(both(id));
    const add = vi.spyOn(Set.prototype, "add");
    const counts = ids("w", 300).map((id, i) => {
      // every 100th writer comes after one more reader of †state.a.x
      if (i % 100 === 99) compiler.addCall({ ...reader(`x${i}`), message: "{†state.a.x}" });
      return compiler.addCall(merge(id)).diagnostics[0]?.message.match(/and (\d+) more/)?.[1];
    });
    // the 10 readers walked by each writer: ~3,000 adds
    expect(add.mock.calls.length).toBeLessThan(1_500);
    // the first writer had none before it; "r0" … "r4" named, then 5 more, 6 more, …
    expect(counts).toEqual([undefined, ...fill(98, "5"), ...fill(100, "6"), ...fill(100, "7"), "8"]);
  });

  it("walk the readers once for writers that alternate between sibling paths (A, B then A, C …)", () => {
    // the thread holds †state.a.x and †state.a.y: a writer below one of them feeds †state.a and it
    const compiler = createIncrementalCompiler(registry, { context: { state: { a: { x: {}, y: {} } } } });
    for (const id of ids("b", 10)) compiler.addCall(both(id));
    for (const id of ids("x", 500)) compiler.addCall({ ...reader(id), message: "{†state.a.x}" });
    for (const id of ids("y", 2_000)) compiler.addCall({ ...reader(id), message: "{†state.a.y}" });
    const add = vi.spyOn(Set.prototype, "add");
    const warnings = ids("w", 200).map(
      (id, i) =>
        compiler.addCall({ ...writer(id), _outputPath: `†state.a.${i % 2 === 0 ? "x" : "y"}.${id}` })
          .diagnostics,
    );
    // a walk of 520 or 1,000 readers per writer (stop 38 kept one walk by the first group, †state.a's): ~150,000
    expect(add.mock.calls.length).toBeLessThan(5_000);
    // b0 … b9 read †state.a and †state.a.x: counted once
    expect(warnings[0]?.[0]?.message).toContain(
      'writes †state.a, †state.a.x, which calls "b0", "b1", "b2", "b3", "b4" and 505 more',
    );
    expect(warnings[0]?.[0]?.related).toEqual([...ids("b", 10), ...ids("x", 90)]);
    expect(warnings[1]?.[0]?.message).toContain(
      'writes †state.a, †state.a.y, which calls "b0", "b1", "b2", "b3", "b4" and at least 1995 more',
    );
    expect(warnings[1]?.[0]?.related).toEqual([...ids("b", 10), ...ids("y", 90)]);
    // every later writer of the same sibling: the same readers (the message but its first words)
    const readersNamed = (i: number) => warnings[i]?.[0]?.message.replace(/^call "w\d+"/, "");
    expect(warnings.every((_, i) => readersNamed(i) === readersNamed(i % 2))).toBe(true);
    // a reader sent since: the next writer of its sibling counts it, still without a walk
    compiler.addCall({ ...reader("x500"), message: "{†state.a.x}" });
    expect(
      compiler.addCall({ ...writer("v0"), _outputPath: "†state.a.x.v0" }).diagnostics[0]?.message,
    ).toContain("and 506 more");
    expect(add.mock.calls.length).toBeLessThan(5_000);
  });

  it("do not list every writer of what a call reads for each search (its predecessors)", () => {
    const compiler = createIncrementalCompiler(registry);
    // r<i> reads †state.a.x<i>; n writers of †state.b sent after them come after them in the order, so
    // each c<i> (reads †state.b, writes †state.a.x<i>) has a reader before its predecessors: a search each
    for (const id of ids("r", 300)) compiler.addCall({ ...reader(id), message: `{†state.a.x${id}}` });
    for (const id of ids("w", 300)) compiler.addCall({ ...writer(id), _outputPath: `†state.b.${id}` });
    const add = vi.spyOn(Set.prototype, "add");
    for (const id of ids("r", 300))
      expect(
        compiler.addCall({ ...reader(`c${id}`), message: "{†state.b}", _outputPath: `†state.a.x${id}` }).ok,
      ).toBe(true);
    // a set of the 300 writers per search: 90,000 adds
    expect(add.mock.calls.length).toBeLessThan(10_000);
    expect(compiler.close().diagnostics).toEqual([]);
  });
});
