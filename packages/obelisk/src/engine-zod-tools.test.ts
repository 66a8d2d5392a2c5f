import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { createEngine, defineTool, type Engine } from "./index.js";

describe("a tool defined with zod gets what zod's parse gives (its run is typed with the schema's output)", () => {
  let engine: Engine;
  const seen: unknown[] = [];
  afterEach(async () => {
    seen.length = 0;
    await engine.close();
  });

  it("fills defaults and applies transforms before run", async () => {
    const tool = defineTool({
      name: "shape",
      input: z.object({
        n: z.number().default(5),
        s: z.string().transform((text) => text.toUpperCase()),
      }),
      run: (args) => {
        seen.push(args);
        return args.n + args.s.length;
      },
    });
    engine = createEngine({ tools: [tool] });
    const result = await engine.run([{ _tool: "shape", s: "abc", _outputPath: "†state.r" }]);
    expect(result.status).toBe("succeeded");
    expect(seen).toEqual([{ n: 5, s: "ABC" }]);
    expect(result.state).toEqual({ r: 8 });
  });

  it("a refinement zod refuses fails the call with PARAM_INVALID before run; independent calls go on", async () => {
    const even = defineTool({
      name: "even",
      input: z.object({ n: z.number().refine((value) => value % 2 === 0, "must be even") }),
      run: (args) => {
        seen.push(args);
        return args.n;
      },
    });
    engine = createEngine({ tools: [even] });
    const result = await engine.run([
      { _tool: "even", _id: "odd", n: 3, _outputPath: "†state.odd" },
      { _tool: "even", _id: "ok", n: 4, _outputPath: "†state.ok" },
    ]);
    expect(result.calls.odd).toMatchObject({ status: "failed", error: { code: "PARAM_INVALID" } });
    expect(result.calls.ok?.status).toBe("succeeded");
    expect(seen).toEqual([{ n: 4 }]);
  });

  it("an output refinement zod refuses fails the call like an output schema violation; nothing is written", async () => {
    const negative = defineTool({
      name: "negative",
      output: z.number().refine((value) => value > 0, "positive"),
      run: () => -1,
    });
    engine = createEngine({ tools: [negative] });
    const result = await engine.run([{ _tool: "negative", _id: "x", _outputPath: "†state.x" }]);
    expect(result.calls.x?.status).toBe("failed");
    expect(result.calls.x?.error?.code).toBe("OUTPUT_INVALID");
    expect(result.state).toEqual({});
  });
});

describe("zod types JSON cannot hold, through createEngine", () => {
  it("a tool that requires a z.date() is refused with USAGE naming the field; an optional one is accepted", async () => {
    const required = defineTool({ name: "remind", input: z.object({ when: z.date() }), run: () => 1 });
    expect(() => createEngine({ tools: [required] })).toThrow(
      expect.objectContaining({ code: "USAGE", message: expect.stringContaining("when") }),
    );
    const optional = defineTool({
      name: "remind",
      input: z.object({ when: z.date().optional(), text: z.string() }),
      run: ({ text }) => text,
    });
    const engine = createEngine({ tools: [optional] });
    expect((await engine.validate([{ _tool: "remind", text: "hi" }])).ok).toBe(true);
    const withWhen = await engine.validate([{ _tool: "remind", text: "hi", when: "2026-11-25" }]);
    expect(withWhen.diagnostics).toMatchObject([{ code: "PARAM_INVALID", pointer: "/0/when" }]);
  });
});
