import type { ObeliskError } from "@obelisk/core";
import { describe, expect, it } from "vitest";
import { thrownUsage } from "./__fixtures__/thrown-usage.js";
import { createToolRegistry } from "./tool-registry.js";

/** The USAGE error registering these tools throws (a registry built is a test failure). */
const usageError = (tools: Parameters<typeof createToolRegistry>[0]): ObeliskError =>
  thrownUsage(() => createToolRegistry(tools), "the tools were registered");

describe("a tool definition with a key it does not have is refused (USAGE)", () => {
  it.each(["execute", "handler", "invoke"])(
    "%s (another framework's name for run) would make a latent tool: refused, pointing at run",
    (key) => {
      const error = usageError([
        { name: "sendSms", input: { type: "object" }, [key]: async () => "sent" } as never,
      ]);
      expect(error.message).toContain(`tool "sendSms": unknown key "${key}"`);
      expect(error.hint).toBe('did you mean "run"?');
    },
  );

  it("a misspelt key gets the nearest name", () => {
    const error = usageError([{ name: "t", rn: () => 1 } as never]);
    expect(error.message).toContain('unknown key "rn"');
    expect(usageError([{ name: "t", run: () => 1, timeout: 5 } as never]).hint).toBe(
      'did you mean "timeoutMs"?',
    );
  });

  it("a key far from every name lists what a definition has", () => {
    expect(usageError([{ name: "t", run: () => 1, banana: true } as never]).hint).toContain(
      "a tool definition has name, description, input",
    );
  });

  it("the spec's tool form (a JSON Schema) keeps its schema keywords", () => {
    const registry = createToolRegistry([
      {
        $schema: "https://json-schema.org/draft/2020-12/schema",
        title: "echo",
        type: "object",
        properties: { _tool: { const: "echo" }, text: { type: "string" } },
        required: ["_tool", "text"],
        additionalProperties: false,
        run: ({ text }: { text: string }) => text,
      } as never,
    ]);
    expect(registry.get("echo")?.latent).toBe(false);
  });
});

describe("latent: stated, it must agree with run", () => {
  it("latent: true without run registers a latent tool", () => {
    expect(createToolRegistry([{ name: "note", latent: true }]).get("note")?.latent).toBe(true);
  });

  it("latent: false with run registers a tool that runs", () => {
    expect(createToolRegistry([{ name: "t", latent: false, run: () => 1 }]).get("t")?.latent).toBe(false);
  });

  it("latent: true with a run function is refused", () => {
    expect(usageError([{ name: "t", latent: true, run: () => 1 }]).message).toContain(
      'tool "t": latent: true, but it has a run function',
    );
  });

  it("latent: false without run is refused (a misplaced run would otherwise pass as latent)", () => {
    expect(usageError([{ name: "t", latent: false }]).message).toContain(
      'tool "t": latent: false, but it has no run function',
    );
  });

  it("latent that is not a boolean is refused", () => {
    expect(usageError([{ name: "t", latent: "yes" } as never]).message).toContain(
      "latent must be true or false",
    );
  });
});

describe("tools given as an object by name", () => {
  it("a key that differs from the tool's name is refused (the plan would call it by its name)", () => {
    const error = usageError({ pay: { name: "charge", run: () => 1 } });
    expect(error.message).toContain('tools.pay is named "charge"');
    expect(error.hint).toContain('use the key "charge"');
  });

  it("the key names a tool without a name of its own, and may repeat the name", () => {
    const registry = createToolRegistry({
      pay: { run: () => 1 } as never,
      charge: { name: "charge", run: () => 2 },
    });
    expect([registry.get("pay")?.name, registry.get("charge")?.name]).toEqual(["pay", "charge"]);
  });
});
