import { createToolRegistry, strictPlanJsonSchema } from "@obelisk/compiler";
import { describe, expect, it } from "vitest";
import { fixture, inProcess, inProcessJson, tempDir } from "./cli-harness.js";

const strictTools = fixture("strict-tools.mjs");

/** What the library answers for the fixture's tools (the CLI must print the same). */
async function expected() {
  const tools = ((await import(strictTools)) as { default: unknown }).default;
  return strictPlanJsonSchema(createToolRegistry(tools));
}

describe.concurrent("obelisk schema --strict (decision 0028)", { timeout: 60_000 }, () => {
  it("text: the strict schema alone on stdout, each deviation a warning line on stderr; exit 0", async () => {
    const { schema, deviations } = await expected();
    expect(deviations.length).toBeGreaterThan(0);
    const result = await inProcess(["schema", "--tools", strictTools, "--strict"], tempDir());
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual(schema);
    const lines = result.stderr.trimEnd().split("\n");
    expect(lines).toHaveLength(deviations.length);
    expect(lines).toContain(
      `warning [open-object] tool "tag" input schema at /properties/labels: ${
        deviations.find((d) => d.reason === "open-object")?.message
      }`,
    );
    // the full schema is a different one (optional parameters are not nullable there)
    const full = await inProcess(["schema", "--tools", strictTools], tempDir());
    expect(JSON.parse(full.stdout)).not.toEqual(schema);
    expect(full.stderr).toBe("");
  });

  it("json: one document { schema, deviations } on stdout and no deviation on stderr", async () => {
    const { schema, deviations } = await expected();
    const result = await inProcessJson(["schema", "--tools", strictTools, "--strict"], tempDir());
    expect(result.code).toBe(0);
    expect(result.json).toEqual({ schema, deviations: JSON.parse(JSON.stringify(deviations)) });
    expect(result.stderr).toBe("");
  });

  it("tools strict mode can say in full: no warning; --limits reaches the strict schema as the full one", async () => {
    const plain = fixture("tools.js");
    const result = await inProcess(["schema", "--tools", plain, "--strict"], tempDir());
    expect(result).toMatchObject({ code: 0, stderr: "" });
    expect(JSON.stringify(JSON.parse(result.stdout))).toContain('"enum":["shout"]');
    const limited = await inProcess(
      ["schema", "--tools", plain, "--strict", "--limits", "maxRetryAttempts=3"],
      tempDir(),
    );
    expect(limited.stdout).not.toBe(result.stdout);
    expect(limited.stdout).toMatch(/"maximum": 3\b/);
  });

  it("null-absent: an optional any-value parameter and a latent tool's _output, in text and json", async () => {
    const anyTools = fixture("strict-any-tools.mjs");
    const text = await inProcess(["schema", "--tools", anyTools, "--strict"], tempDir());
    expect(text.code).toBe(0);
    const lines = text.stderr.trimEnd().split("\n");
    expect(lines).toContain(
      'warning [null-absent] tool "note" input schema at /properties/extra: the property is optional and takes any value: strict mode has the model write null for it when absent, so null here means absent (a null value can only be given as a reference)',
    );
    expect(lines).toContainEqual(
      expect.stringMatching(/^warning \[null-absent\] tool "ask" output schema at \/: /),
    );
    const json = await inProcessJson(["schema", "--tools", anyTools, "--strict"], tempDir());
    expect(json.stderr).toBe("");
    expect((json.json as { deviations: unknown[] }).deviations).toContainEqual({
      tool: "note",
      schema: "input",
      pointer: "/properties/extra",
      reason: "null-absent",
      message: expect.stringContaining("null here means absent"),
    });
  });
});
