import { describe, expect, it } from "vitest";
import { z } from "zod";
import { createEngine, defineTool, type HostKind, planLanguagePrompt } from "./index.js";

// Decision 0077: the primer names the engine's host kinds, and which parameters may read a scoped one, so a
// model writes the plan the readers check (decision 0073) accepts instead of learning it from the refusal.

const callApi = defineTool({
  name: "callApi",
  input: z.object({ auth: z.string(), path: z.string() }),
  run: ({ path }) => `fetched ${path}`,
});
const fmt = defineTool({ name: "fmt", input: z.object({ text: z.string() }), run: ({ text }) => text });

const engineWith = (kinds: readonly HostKind[]) => createEngine({ tools: [callApi, fmt], kinds });

/** The primer's line on host kinds, if any. */
const kindsLine = (prompt: string) =>
  prompt.split("\n").find((line) => line.startsWith("- Read-only values the host gives each run"));

describe("planLanguagePrompt: the engine's host kinds", () => {
  it("names each kind a plan may read with its description, and who may read a scoped one, after the references", () => {
    const engine = engineWith([
      { kind: "user", description: "the signed-in user" },
      { kind: "secrets", description: "API keys", readers: { callApi: ["auth"] } },
      { kind: "locale" },
      { kind: "vault", readers: {} },
    ]);
    const prompt = planLanguagePrompt(engine);
    expect(kindsLine(prompt)).toBe(
      '- Read-only values the host gives each run (read whole, or by a path into them as in †state): "†user" (the signed-in user), "†secrets" (API keys; only callApi.auth may read it: elsewhere the plan is refused), "†locale".',
    );
    const lines = prompt.split("\n");
    expect(lines[lines.indexOf(kindsLine(prompt) as string) - 1]).toContain('"†input.<key>"');
    expect(planLanguagePrompt(engine.registry)).toBe(prompt);
    expect(planLanguagePrompt(engine, { agentTools: false })).toContain(kindsLine(prompt));
  });

  it("what the line says holds: the named parameter reads the kind, another one refuses the plan", async () => {
    const engine = engineWith([{ kind: "secrets", readers: { callApi: ["auth"], fmt: ["text"] } }]);
    expect(kindsLine(planLanguagePrompt(engine))).toContain("only callApi.auth or fmt.text may read it");
    const context = { secrets: { key: "k" } };
    const allowed = [{ _tool: "callApi", auth: "†secrets.key", path: "/a" }];
    expect((await engine.validate(allowed, { context })).ok).toBe(true);
    const refused = [{ _tool: "callApi", auth: "x", path: "/{†secrets.key}" }];
    expect((await engine.validate(refused, { context })).diagnostics).toMatchObject([
      { code: "REF_KIND_FORBIDDEN", pointer: "/0/path" },
    ]);
    await engine.close();
  });

  it("stays within 4,000 characters with many long kinds: descriptions cut, the rest counted", () => {
    const kinds = Array.from({ length: 300 }, (_, index) => ({
      kind: `kind${index}`,
      description: `a long\ndescription ${"d".repeat(500)}`,
      readers: { callApi: ["auth", "path"], fmt: ["text"] },
    }));
    const prompt = planLanguagePrompt(engineWith(kinds));
    expect(prompt.length).toBeLessThanOrEqual(4_000);
    const line = kindsLine(prompt) as string;
    expect(line).toMatch(
      /^- Read-only values the host gives each run \(.*\): "†kind0" \(a long description d+…; only/,
    );
    expect(line).toMatch(/, and \d+ more\.$/);
    expect(line.length).toBeLessThanOrEqual(600);
  });
});
