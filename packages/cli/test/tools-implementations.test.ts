import { describe, expect, it } from "vitest";
import { expectOneLineError, fixture, inProcessJson, tempDir } from "./cli-harness.js";

const cwd = tempDir();
const plan = fixture("spec-form-plan.json");

describe.concurrent("a tools module's implementations export (SPEC §9)", { timeout: 120_000 }, () => {
  it.each(["spec-form-tools.mjs", "spec-form-tools-by-name.mjs", "spec-form-tools.cjs"])(
    "%s: spec-form tools with their implementations run a plan to succeeded",
    async (tools) => {
      const run = await inProcessJson(["run", plan, "--tools", fixture(tools), "--store", "memory"], cwd);
      expect(run.code).toBe(0);
      expect(run.json).toMatchObject({
        status: "succeeded",
        state: { user: { verified: { id: "u1", ok: true } }, greeting: "Hello u1" },
      });
      const statuses = Object.values((run.json as { calls: Record<string, { status: string }> }).calls);
      expect(statuses.map((call) => call.status)).toEqual(["succeeded", "succeeded"]);
    },
  );

  it("the schema of a module with implementations offers no _output for its tools (they are not latent)", async () => {
    const withRun = await inProcessJson(["schema", "--tools", fixture("spec-form-tools.mjs")], cwd);
    expect(withRun.code).toBe(0);
    expect(JSON.stringify(withRun.json)).not.toContain('"_output"');
  });

  it("an implementations export that is not an object: usage error, exit 2, one line", async () => {
    const result = await inProcessJson(
      ["run", plan, "--tools", fixture("bad-implementations-tools.mjs"), "--store", "memory"],
      cwd,
    );
    expectOneLineError(result, 2);
    expect(result.json).toEqual({
      error: {
        code: "USAGE",
        message: expect.stringMatching(
          /bad-implementations-tools\.mjs: its implementations export must be an object of functions by tool name \(got a string\)$/,
        ),
      },
    });
  });

  it("an implementation keyed by a name no tool has: usage error, exit 2, naming the nearest tool", async () => {
    const result = await inProcessJson(
      ["run", plan, "--tools", fixture("misnamed-implementation-tools.mjs"), "--store", "memory"],
      cwd,
    );
    expect(result.code).toBe(2);
    expect(result.json).toMatchObject({
      error: { code: "USAGE", message: expect.stringContaining("implementations.verifyUsr names no tool") },
    });
    expect(result.stderr).toContain('did you mean "verifyUser"?');
  });
});
