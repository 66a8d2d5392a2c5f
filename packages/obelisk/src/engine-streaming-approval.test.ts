import { afterEach, describe, expect, it } from "vitest";
import { createEngine, type Engine, ObeliskError, type OpenOptions } from "./index.js";

/** The code an awaited promise rejects with ("resolved" when it does not). */
async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return "resolved";
  } catch (error) {
    return ObeliskError.is(error) ? error.code : "not an ObeliskError";
  }
}

describe("a streaming run cannot be approved in advance", () => {
  let engine: Engine;
  let ran = 0;
  afterEach(async () => {
    await engine.close();
  });
  const setup = () => {
    ran = 0;
    engine = createEngine({
      tools: [
        {
          name: "t",
          run: () => {
            ran++;
            return 1;
          },
        },
      ],
    });
  };

  it("open with an approvedHash is USAGE with a hint to approve the whole plan and use run; nothing is recorded", async () => {
    setup();
    const approvedHash = (await engine.validate([{ _tool: "t", _id: "a" }])).planHash;
    // untyped callers (and LLM-driven hosts) can still pass it: the type leaves it out
    const options = { threadId: "s", approvedHash } as OpenOptions;
    let error: unknown;
    try {
      await engine.open(options);
    } catch (caught) {
      error = caught;
    }
    expect(ObeliskError.is(error) ? error.code : error).toBe("USAGE");
    expect((error as ObeliskError).message).toMatch(/approvedHash/);
    expect((error as ObeliskError).hint).toMatch(/run/);
    expect(await engine.runs.list({ threadId: "s" })).toEqual([]);
    expect(ran).toBe(0);
    // the thread was never locked
    expect((await engine.run([{ _tool: "t", _id: "a" }], { threadId: "s", approvedHash })).status).toBe(
      "succeeded",
    );
  });

  it("a hash that is not a string is USAGE too; open without one works as before", async () => {
    setup();
    expect(await codeOf(engine.open({ approvedHash: 5 } as unknown as OpenOptions))).toBe("USAGE");
    const run = await engine.open({ threadId: "s", approvedHash: undefined } as OpenOptions);
    expect(run.add({ _tool: "t", _id: "a" }).ok).toBe(true);
    expect((await run.close()).status).toBe("succeeded");
    expect(ran).toBe(1);
  });
});
