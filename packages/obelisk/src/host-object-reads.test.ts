import { describe, expect, it } from "vitest";
import { thrownError } from "./__fixtures__/error-codes.js";
import { createEngine, ObeliskError, type RunOptions } from "./index.js";

const boom = (): never => {
  throw new Error("boom");
};
/** `object` with an enumerable `key` whose getter throws. */
const throwingGetter = <T extends object>(object: T, key: string): T =>
  Object.defineProperty(object, key, { enumerable: true, get: boom });
const echo = { name: "echo", input: { type: "object", properties: { x: {} } }, run: () => 1 };
const revoked = (): object => {
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  return proxy;
};

/** The USAGE error `work` rejects with (anything else fails the test). */
async function usageOf(work: () => Promise<unknown>): Promise<ObeliskError> {
  const error = await work().then(
    () => new Error("it succeeded"),
    (thrown: unknown) => thrown,
  );
  if (!ObeliskError.is(error, "USAGE")) throw error;
  return error;
}

describe("createEngine: options with a getter or Proxy trap that throws are USAGE naming where, never a raw error", () => {
  it.each<[string, () => unknown, string]>([
    [
      "a throwing tools getter",
      () => throwingGetter({}, "tools"),
      `createEngine's option "tools": reading it threw: boom`,
    ],
    [
      "a throwing now getter",
      () => throwingGetter({ tools: [] }, "now"),
      `createEngine's option "now": reading it threw: boom`,
    ],
    [
      "options whose get trap throws",
      () => new Proxy({ tools: [] }, { get: boom }),
      `createEngine's option "tools": reading it threw: boom`,
    ],
    [
      "options whose ownKeys trap throws",
      () => new Proxy({ tools: [] }, { ownKeys: boom }),
      "createEngine's options: reading it threw: boom",
    ],
    [
      "limits with a throwing getter",
      () => ({ tools: [], limits: throwingGetter({}, "maxCalls") }),
      "createEngine's limits: reading it threw: boom",
    ],
    [
      "retention with a throwing getter",
      () => ({ tools: [], retention: throwingGetter({}, "maxRuns") }),
      "createEngine's retention: reading it threw: boom",
    ],
    [
      "a tool whose get trap throws",
      () => ({ tools: [new Proxy(echo, { get: boom })] }),
      "tools[0]: reading it threw: boom",
    ],
    [
      "a tool's input schema whose ownKeys trap throws",
      () => ({ tools: [{ ...echo, input: new Proxy({ type: "object" }, { ownKeys: boom }) }] }),
      'tool "echo" input schema: reading it threw: boom',
    ],
  ])("%s", (_label, options, message) => {
    const error = thrownError(() => createEngine(options() as never), "USAGE");
    expect(error.message).toBe(message);
    expect(error.hint).toMatch(/plain objects/);
  });

  it("a revoked Proxy as the options", () => {
    expect(thrownError(() => createEngine(revoked() as never), "USAGE").message).toMatch(
      /^createEngine's options: reading it threw: .*revoked/,
    );
  });
});

describe("run options with a getter or Proxy trap that throws are USAGE naming the option; nothing runs", () => {
  it.each<[string, (engine: ReturnType<typeof createEngine>, options: RunOptions) => Promise<unknown>]>([
    ["run", (engine, options) => engine.run([{ _tool: "echo", x: 1 }], options)],
    ["start", (engine, options) => engine.start([{ _tool: "echo", x: 1 }], options).result],
    ["validate", (engine, options) => engine.validate([{ _tool: "echo", x: 1 }], options)],
    ["open", (engine, options) => engine.open(options)],
  ])("%s: a signal getter that throws, and options whose get trap throws", async (method, call) => {
    let ran = 0;
    const engine = createEngine({ tools: [{ ...echo, run: () => ++ran }] });
    const getter = await usageOf(() => call(engine, throwingGetter({ threadId: "t" }, "signal")));
    expect(getter.message).toBe(`${method}'s option "signal": reading it threw: boom`);
    const trap = new Proxy(
      { threadId: "t" },
      { get: (target, key) => (key === "input" ? boom() : Reflect.get(target, key)) },
    );
    expect((await usageOf(() => call(engine, trap))).message).toBe(
      `${method}'s option "input": reading it threw: boom`,
    );
    expect(ran).toBe(0);
  });

  it("open: an inputSchema whose ownKeys trap throws is refused, not thrown raw", async () => {
    const engine = createEngine({ tools: [echo] });
    const error = await engine
      .open({
        threadId: "t",
        input: {},
        inputSchema: new Proxy({ type: "object" }, { ownKeys: boom }),
      } as never)
      .then(
        () => undefined,
        (thrown: unknown) => thrown,
      );
    expect(ObeliskError.is(error)).toBe(true);
  });
});
