import type { ObeliskError } from "@obelisk/core";
import { describe, expect, it } from "vitest";
import { thrownUsage } from "./__fixtures__/thrown-usage.js";
import { specFormTool } from "./__fixtures__/tools.js";
import { compile } from "./compile.js";
import type { ToolContext } from "./tool-definition.js";
import { createToolRegistry, type ToolRegistryOptions } from "./tool-registry.js";

/** The USAGE error building this registry throws (a registry built is a test failure). */
const usageError = (tools: unknown, implementations: unknown): ObeliskError =>
  thrownUsage(
    () => createToolRegistry(tools, { implementations } as ToolRegistryOptions),
    "the registry was built",
  );

const echo = { name: "echo", input: { type: "object" }, run: (args: unknown) => args };
const ctx = { attempt: 1 } as ToolContext;

describe("createToolRegistry's implementations (SPEC §9: the spec's tool form, implementations given separately)", () => {
  it("a spec-form tool runs its implementation through the registry: not latent", async () => {
    const sent: unknown[] = [];
    const registry = createToolRegistry([specFormTool], {
      implementations: {
        sendEmail: async (args: { to: string }) => {
          sent.push(args);
          return `sent to ${args.to}`;
        },
      },
    });
    const tool = registry.get("sendEmail");
    expect(tool?.latent).toBe(false);
    expect(await tool?.run?.({ to: "a@b.c" }, ctx)).toBe("sent to a@b.c");
    expect(sent).toEqual([{ to: "a@b.c" }]);
    const plan = [{ _tool: "sendEmail", to: "a@b.c", _outputPath: "†state.mail.sent" }];
    expect(compile(plan, registry).diagnostics.filter((d) => d.severity === "error")).toEqual([]);
  });

  it("without its implementation the spec-form tool is latent, as before", () => {
    expect(createToolRegistry([specFormTool]).get("sendEmail")?.latent).toBe(true);
    expect(createToolRegistry([specFormTool], { implementations: {} }).get("sendEmail")?.latent).toBe(true);
  });

  it("a module namespace (null prototype) is an object of implementations", () => {
    const namespace = Object.assign(Object.create(null) as object, { sendEmail: () => "sent" });
    const registry = createToolRegistry([specFormTool], { implementations: namespace as never });
    expect(registry.get("sendEmail")?.latent).toBe(false);
  });

  it("a plain tool without run takes its implementation by name too", () => {
    const registry = createToolRegistry({ note: { input: { type: "object" } } } as never, {
      implementations: { note: () => "noted" },
    });
    expect(registry.get("note")?.latent).toBe(false);
  });

  it.each<[string, unknown, string]>([
    ["an array", [() => 1], "implementations must be an object of functions by tool name (got an array)"],
    ["a function", () => 1, "implementations must be an object of functions by tool name (got a function)"],
    ["null", null, "implementations must be an object of functions by tool name (got null)"],
    ["a string", "sendEmail", "implementations must be an object of functions by tool name (got a string)"],
    // their entries are not own keys: the registry would find none, and the tools would stay latent
    [
      "a Map",
      new Map([["sendEmail", () => "sent"]]),
      "implementations must be an object of functions by tool name (got an instance of Map)",
    ],
    [
      "a class instance",
      new (class Implementations {
        sendEmail() {
          return "sent";
        }
      })(),
      "implementations must be an object of functions by tool name (got an instance of Implementations)",
    ],
    [
      "an object whose functions are inherited",
      Object.create({ sendEmail: () => "sent" }),
      "implementations must be an object of functions by tool name (got an object)",
    ],
  ])("implementations that are %s: USAGE", (_label, implementations, message) => {
    expect(usageError([specFormTool], implementations).message).toBe(message);
  });

  it.each<[string, unknown, string]>([
    ["a string", "sendEmail.js", "got a string"],
    ["an object", { run: () => 1 }, "got an object"],
    ["null", null, "got null"],
    ["undefined", undefined, "got undefined"],
  ])("an implementation that is %s: USAGE naming it", (_label, value, got) => {
    const error = usageError([specFormTool], { sendEmail: value });
    expect(error.message).toContain("implementations.sendEmail must be a function");
    expect(error.message).toContain(got);
  });

  it("a key that names no tool: USAGE, with the nearest tool name as hint", () => {
    const error = usageError([specFormTool, echo], { sendEmial: () => "sent" });
    expect(error.message).toBe("implementations.sendEmial names no tool (tools: sendEmail, echo)");
    expect(error.hint).toBe('did you mean "sendEmail"?');
  });

  it("a key far from every tool name: USAGE, and the hint says what the keys are", () => {
    const error = usageError([specFormTool], { zzzzzzzzzzzz: () => 1 });
    expect(error.message).toBe("implementations.zzzzzzzzzzzz names no tool (tools: sendEmail)");
    expect(error.hint).toContain("keyed by tool name");
    expect(usageError([], { echo: () => 1 }).message).toBe(
      "implementations.echo names no tool (there are no tools)",
    );
  });

  it("a tool with its own run and an implementation too: USAGE, ambiguous, naming the tool", () => {
    const error = usageError([echo], { echo: () => "other" });
    expect(error.message).toBe(
      'tool "echo" has its own run and an implementation in implementations.echo: which one runs is ambiguous',
    );
    expect(error.hint).toBe("give one: remove the tool's run, or implementations.echo");
    // the spec form with a run of its own alike
    const specWithRun = { ...specFormTool, run: () => "own" };
    expect(usageError([specWithRun], { sendEmail: () => "sent" }).message).toContain(
      'tool "sendEmail" has its own run and an implementation in implementations.sendEmail',
    );
  });
});
