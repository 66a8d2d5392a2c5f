import { describe, expect, it } from "vitest";
import { thrownUsage } from "./__fixtures__/thrown-usage.js";
import { createToolRegistry } from "./tool-registry.js";

const boom = (): never => {
  throw new Error("boom");
};
/** `object` with an enumerable `key` whose getter throws. */
const throwingGetter = <T extends object>(object: T, key: string): T =>
  Object.defineProperty(object, key, { enumerable: true, get: boom });
const tool = (more: object = {}) => ({ name: "t", input: { type: "object" }, run: () => 1, ...more });
const revoked = (): object => {
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  return proxy;
};

describe("createToolRegistry: a getter or Proxy trap of the host's objects that throws is USAGE naming where", () => {
  it.each<[string, () => unknown, unknown, string]>([
    ["a tools array whose get trap throws", () => new Proxy([tool()], { get: boom }), undefined, "tools: "],
    [
      "a tools object whose ownKeys trap throws",
      () => new Proxy({ t: tool() }, { ownKeys: boom }),
      undefined,
      "tools: ",
    ],
    ["a tools object with a throwing getter", () => throwingGetter({}, "t"), undefined, "tools: "],
    [
      "a tool whose name getter throws",
      () => [throwingGetter({ run: () => 1 }, "name")],
      undefined,
      "tools[0]: ",
    ],
    ["a tool whose get trap throws", () => [new Proxy(tool(), { get: boom })], undefined, "tools[0]: "],
    [
      "a tool whose ownKeys trap throws",
      () => [new Proxy(tool(), { ownKeys: boom })],
      undefined,
      "tools[0]: ",
    ],
    [
      "a tool by name whose get trap throws",
      () => ({ t: new Proxy(tool(), { get: boom }) }),
      undefined,
      "tools.t: ",
    ],
    [
      "an input getter that throws",
      () => [throwingGetter({ name: "t", run: () => 1 }, "input")],
      undefined,
      'tool "t" input schema: ',
    ],
    [
      "an input schema whose ownKeys trap throws",
      () => [tool({ input: new Proxy({ type: "object" }, { ownKeys: boom }) })],
      undefined,
      'tool "t" input schema: ',
    ],
    [
      "an input schema whose get trap throws",
      () => [tool({ input: new Proxy({ type: "object" }, { get: boom }) })],
      undefined,
      'tool "t" input schema: ',
    ],
    [
      "an output schema whose ownKeys trap throws",
      () => [tool({ output: new Proxy({ type: "object" }, { ownKeys: boom }) })],
      undefined,
      'tool "t" output schema: ',
    ],
    [
      "a retry object with a throwing getter",
      () => [tool({ retry: throwingGetter({}, "attempts") })],
      undefined,
      'tool "t": ',
    ],
    ["implementations with a throwing getter", () => [], throwingGetter({}, "t"), "implementations: "],
  ])("%s", (_label, tools, implementations, where) => {
    const error = thrownUsage(
      () =>
        createToolRegistry(
          tools(),
          implementations === undefined ? {} : { implementations: implementations as never },
        ),
      "the registry was built",
    );
    expect(error.message).toBe(`${where}reading it threw: boom`);
    expect(error.hint).toMatch(/plain objects/);
    expect((error.cause as Error).message).toBe("boom");
  });

  it("a revoked Proxy as a tool: USAGE naming it, with the engine's own message", () => {
    const error = thrownUsage(() => createToolRegistry([tool(), revoked()]), "the registry was built");
    expect(error.message).toMatch(/^tools\[1\]: reading it threw: .*revoked/);
  });
});
