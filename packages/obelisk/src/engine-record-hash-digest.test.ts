import { describe, expect, it, vi } from "vitest";

/** SHA-256 inputs the size of the rows' text or more: a digest of the whole array. */
const large = vi.hoisted(() => ({ hashes: 0 }));
vi.mock("node:crypto", async (importOriginal) => {
  const real = await importOriginal<typeof import("node:crypto")>();
  const hash = (algorithm: string, data: string, encoding: "hex") => {
    if (data.length >= 20_000) large.hashes++;
    return real.hash(algorithm, data, encoding);
  };
  return { ...real, default: { ...real, hash }, hash };
});

const { createEngine, defineTool } = await import("./index.js");

describe("call hashes filled in by the store (stop 36)", () => {
  it("digests a large stored array many calls read once, not once per record", async () => {
    const engine = createEngine({
      tools: [
        defineTool({ name: "rows", run: () => Array.from({ length: 2_000 }, (_, i) => ({ i, s: "row" })) }),
        defineTool({ name: "count", run: (args) => (args as { rows: unknown[] }).rows.length }),
      ],
    });
    // a thread without records of `count`: its calls are sent without a hash, the store fills it in
    const plan = [
      { _tool: "rows", _id: "r", _outputPath: "†state.rows" },
      ...Array.from({ length: 20 }, (_, i) => ({
        _tool: "count",
        _id: `c${i}`,
        rows: "†state.rows",
        _outputPath: `†state.n${i}`,
      })),
    ];
    const result = await engine.run(plan, { threadId: "t" });
    expect(result.status).toBe("succeeded");
    expect(result.state.n19).toBe(2_000);
    const records = (await engine.runs.show(result.runId)).calls;
    expect(records.filter((record) => record.callHash?.startsWith("sha256:"))).toHaveLength(21);
    expect(large.hashes).toBe(1); // 20 when each record digested the rows again
  });
});
