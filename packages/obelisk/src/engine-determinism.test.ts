import { describe, expect, it } from "vitest";
import { type Deferred, deferred, until } from "./__fixtures__/deferred.js";
import { createEngine, defineTool } from "./index.js";

describe("what a run hands on does not depend on which call finished first (SPEC §2)", () => {
  it("a template renders an object built by several writers with the same text whatever their finish order", async () => {
    const rendered: string[] = [];
    for (const order of [
      ["name", "age"],
      ["age", "name"],
    ]) {
      const gates = new Map<string, Deferred<unknown>>();
      const ended = new Set<string>();
      const engine = createEngine({
        onEvent: (event) => {
          if (event.type === "call-end") ended.add(event.callId);
        },
        tools: [
          defineTool({
            name: "field",
            input: { type: "object", properties: { key: { type: "string" }, value: {} } },
            run: (args) => {
              const { key, value } = args as { key: string; value: unknown };
              const gate = deferred<unknown>();
              gates.set(key, gate);
              return gate.promise.then(() => value);
            },
          }),
          defineTool({
            name: "prompt",
            input: { type: "object", properties: { text: { type: "string" } } },
            run: (args) => {
              const text = String(args.text);
              rendered.push(text);
              return text;
            },
          }),
        ],
      });
      const running = engine.run(
        [
          { _tool: "field", _id: "name", key: "name", value: "Ada", _outputPath: "†state.user.name" },
          { _tool: "field", _id: "age", key: "age", value: 36, _outputPath: "†state.user.age" },
          { _tool: "prompt", text: "Describe {†state.user}", _outputPath: "†state.prompt" },
        ],
        { threadId: "t" },
      );
      await until(() => gates.size === 2);
      for (const key of order) {
        gates.get(key)?.resolve(undefined);
        await until(() => ended.has(key));
      }
      expect((await running).status).toBe("succeeded");
      await engine.close();
    }
    expect(rendered).toEqual(['Describe {"age":36,"name":"Ada"}', 'Describe {"age":36,"name":"Ada"}']);
  });

  it("a concat call's thrown error is appended to its failure branch as one item", async () => {
    const engine = createEngine({
      tools: [
        defineTool({
          name: "fetchMore",
          input: { type: "object" },
          run: () => {
            throw Object.assign(new Error("page gone"), { code: "GONE" });
          },
        }),
      ],
    });
    const result = await engine.run(
      [
        {
          _tool: "fetchMore",
          _id: "f",
          _outputPath: "†state.items || †state.errors",
          _outputMethod: "concat",
        },
      ],
      { threadId: "t" },
    );
    expect(result.calls.f).toMatchObject({ status: "succeeded", branch: 1, error: { code: "GONE" } });
    expect(result.state.errors).toEqual([{ name: "Error", message: "page gone", code: "GONE" }]);
    await engine.close();
  });

  it("a thrown error whose data is not JSON still goes to the failure branch, without that data", async () => {
    const engine = createEngine({
      tools: [
        defineTool({
          name: "charge",
          input: { type: "object" },
          run: () => {
            throw Object.assign(new Error("card declined"), {
              code: "DECLINED",
              data: { retryAt: new Date(0), ratio: Number.NaN },
            });
          },
        }),
        defineTool({
          name: "notify",
          input: { type: "object" },
          run: (args: { e?: unknown }) => args.e ?? null,
        }),
      ],
    });
    const result = await engine.run(
      [
        { _tool: "charge", _id: "charge", _outputPath: "†state.receipt || †state.chargeError" },
        { _tool: "notify", _id: "notify", e: "†state.chargeError", _outputPath: "†state.notified" },
      ],
      { threadId: "t" },
    );
    expect(result.status).toBe("succeeded");
    expect(result.calls.charge).toMatchObject({
      status: "succeeded",
      branch: 1,
      error: { code: "DECLINED" },
    });
    expect(result.state.chargeError).toEqual({ name: "Error", message: "card declined", code: "DECLINED" });
    expect(result.calls.notify?.status).toBe("succeeded");
    await engine.close();
  });
});
