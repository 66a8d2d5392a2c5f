import { describe, expect, it } from "vitest";
import { expectOneLineError, inProcess, inProcessJson, runnableCommands, tempDir } from "./cli-harness.js";

const cwd = tempDir();

// the commands that take an argument and a required flag: validate, run, graph (--tools), resume (--tools)
const cases = (await runnableCommands())
  .filter(({ command }) => command.registeredArguments.some((argument) => argument.required))
  .filter(({ command }) => command.options.some((option) => option.long === "--tools"))
  .map(({ path, command }) => [path.join(" "), path, command.registeredArguments[0]?.name() ?? ""] as const);

describe("a command given nothing names its argument first, then its required flag (review, stop 32)", () => {
  it("covers validate, run, graph and resume", () => {
    expect(cases.map(([name]) => name).sort()).toEqual(["graph", "resume", "run", "validate"]);
  });

  it.each(cases)("%s", async (_, path, argument) => {
    const nothing = await inProcess(path, cwd);
    expectOneLineError(nothing, 2);
    expect(nothing.stderr).toBe(`error [USAGE] missing required argument '${argument}'\n`);
    const json = await inProcessJson(path, cwd);
    expect(json.json).toEqual({
      error: { code: "USAGE", message: `missing required argument '${argument}'` },
    });
    // with the argument, the flag is still required (nothing is read before it is there)
    const withArgument = await inProcess([...path, "missing.json"], cwd);
    expectOneLineError(withArgument, 2);
    expect(withArgument.stderr).toBe("error [USAGE] required option '--tools <module>' not specified\n");
  });
});
