import { describe, expect, it } from "vitest";
import { expectOneLineError, fixture, inProcess, inProcessJson, tempDir } from "./cli-harness.js";

describe("a tools module without a default export", () => {
  const cwd = tempDir();

  it("takes its named exports that are tools (defineTool results, plain objects with a name)", async () => {
    const tools = fixture("named-export-tools.mjs");
    const run = await inProcessJson(
      ["run", fixture("shout-plan.json"), "--tools", tools, "--store", "memory", "--input", '{"word":"hey"}'],
      cwd,
    );
    expect(run.code).toBe(0);
    expect(run.json).toMatchObject({ status: "succeeded", state: { loud: "HEY!" } });
    const schema = await inProcessJson(["schema", "--tools", tools], cwd);
    expect(schema.code).toBe(0);
    const text = JSON.stringify(schema.json);
    expect(text).toContain('"const":"shout"');
    expect(text).toContain('"const":"whisper"');
    expect(text).not.toContain("VERSION");
  });

  it("refuses a module with no tool at all, naming its exports and the shapes taken (exit 2)", async () => {
    const result = await inProcessJson(["schema", "--tools", fixture("no-default.mjs")], cwd);
    expectOneLineError(result, 2);
    expect(result.json).toEqual({
      error: {
        code: "USAGE",
        message: expect.stringMatching(
          /no-default\.mjs has no tools \(its exports are no tools: tools \(an array\)\): give a default export \(an array of tools, or an object of tools by name\), or named exports that are tools/,
        ),
      },
    });
  });

  it("refuses a named export that looks like a tool but whose run is no function", async () => {
    const result = await inProcess(["schema", "--tools", fixture("named-export-bad-run.mjs")], cwd);
    expectOneLineError(result, 2);
    expect(result.stderr).toContain("its export shout is not a tool: its run is not a function");
  });
});
