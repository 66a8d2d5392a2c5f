import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createSqliteStore } from "@obelisk/state/sqlite";
import { afterAll, describe, expect, it } from "vitest";
import { createEngine, type Engine, type EngineOptions, type JsonValue } from "./index.js";

/** A value of `levels` nested arrays around a 1 (`[[1]]` has 2). */
function nested(levels: number): JsonValue {
  let value: JsonValue = 1;
  for (let level = 0; level < levels; level++) value = [value];
  return value;
}

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const stores = {
  memory: () => undefined,
  sqlite: () => {
    const dir = mkdtempSync(join(tmpdir(), "obelisk-deep-"));
    dirs.push(dir);
    return createSqliteStore(join(dir, "state.db"));
  },
};

describe.each(Object.entries(stores))(
  "values written below a deep path (%s store, decision 0094)",
  (_, store) => {
    /** An engine with an `echo` tool counting its calls, and `deep`, returning `nested(levels)`. */
    function engineWith(options: Partial<EngineOptions> = {}): { engine: Engine; calls: string[] } {
      const calls: string[] = [];
      const echo = {
        name: "echo",
        run: (params: Record<string, unknown>) => {
          calls.push("echo");
          return params;
        },
      };
      const deep = {
        name: "deep",
        run: (params: Record<string, unknown>) => {
          calls.push("deep");
          return nested(Number(params.levels));
        },
      };
      const given = store();
      const engine = createEngine({
        tools: [echo, deep],
        ...(given === undefined ? {} : { store: given }),
        ...options,
      });
      return { engine, calls };
    }

    it("set refuses a value that would nest deeper than 1000 levels in the state, with USAGE, and stores nothing", async () => {
      const { engine } = engineWith();
      const refused = engine.set("t", "†state.a.c.d.e.f", nested(998));
      await expect(refused).rejects.toMatchObject({
        code: "USAGE",
        message: expect.stringContaining("deeper than 1000 levels"),
        data: { reference: "†state.a.c.d.e.f", maxDepth: 1000 },
      });
      expect(await engine.get("t", "†state.a")).toMatchObject({ found: false });
      // the deepest that fits: 5 segments + 995 levels
      await engine.set("t", "†state.a.c.d.e.f", nested(995));
      expect(await engine.get("t", "†state.a")).toMatchObject({ found: true });
      await engine.close();
    });

    it("set below a 999-segment path (maxPathDepth 1000) refuses a 5-level value", async () => {
      const { engine } = engineWith({ limits: { maxPathDepth: 1000 } });
      const reference = `†state${".k".repeat(999)}`;
      await expect(engine.set("t", reference, nested(5))).rejects.toMatchObject({ code: "USAGE" });
      expect(await engine.get("t", "†state.k")).toMatchObject({ found: false });
      await engine.set("t", reference, nested(1));
      await engine.close();
    });

    it("a tool's write that would nest too deep fails OUTPUT_WRITE_FAILED and writes nothing", async () => {
      const { engine } = engineWith();
      for (const method of ["set", "push"] as const) {
        const plan = [{ _tool: "deep", levels: 998, _outputPath: "†state.a.b.c", _outputMethod: method }];
        const result = await engine.run(plan, { threadId: method });
        const call = Object.values(result.calls)[0];
        expect(call).toMatchObject({ status: "failed", error: { code: "OUTPUT_WRITE_FAILED" } });
        expect(call?.error?.message).toBe(
          `†state.a.b.c: the value would nest ${method === "push" ? 1002 : 1001} levels deep in the state (3 path segments + 998 levels of the value${method === "push" ? " + 1 for push" : ""}), deeper than 1000 levels, the most a stored value may nest (MAX_VALUE_DEPTH): a reader could not take it`,
        );
        expect(await engine.get(method, "†state.a")).toMatchObject({ found: false });
        expect(result.state).toEqual({});
      }
      // 3 segments + 997 levels fit with set (push puts the value one level lower)
      const fits = [{ _tool: "deep", levels: 997, _outputPath: "†state.a.b.c" }];
      expect((await engine.run(fits, { threadId: "set" })).status).toBe("succeeded");
      await engine.close();
    });

    it("a reference whose value would nest the parameters too deep fails the call before the tool runs", async () => {
      const { engine, calls } = engineWith();
      await engine.set("t", "†state.a", nested(999));
      const result = await engine.run([{ _tool: "echo", x: { y: "†state.a" } }], { threadId: "t" });
      const call = Object.values(result.calls)[0];
      expect(call).toMatchObject({
        status: "failed",
        error: { code: "OUTPUT_TOO_LARGE" },
      });
      expect(call?.error?.message).toBe(
        "the resolved parameters would nest 1001 levels deep (999 levels of the value read at /0/x/y), deeper than 1000 levels, the most a value may nest (MAX_VALUE_DEPTH): the tool was not run",
      );
      expect(calls).toEqual([]);
      // one level less fits: the tool runs and its record is kept
      const fits = await engine.run([{ _tool: "echo", x: "†state.a" }], { threadId: "t" });
      expect(fits.status).toBe("succeeded");
      expect(calls).toEqual(["echo"]);
      await engine.close();
    });

    it("a call output read into a nested parameter is depth-checked too", async () => {
      const { engine, calls } = engineWith();
      const plan = [
        { _tool: "deep", _id: "d", levels: 1000 },
        { _tool: "echo", x: "†calls.d" },
      ];
      const result = await engine.run(plan, { threadId: "c" });
      expect(result.calls.d?.status).toBe("succeeded");
      expect(Object.values(result.calls)[1]).toMatchObject({
        status: "failed",
        error: { code: "OUTPUT_TOO_LARGE", message: expect.stringContaining("read at /1/x)") },
      });
      expect(calls).toEqual(["deep"]);
      await engine.close();
    });
  },
);
