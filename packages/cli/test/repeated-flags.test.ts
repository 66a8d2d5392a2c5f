import type { Command, Option } from "commander";
import { describe, expect, it } from "vitest";
import { expectOneLineError, inProcess, inProcessJson, runnableCommands, tempDir } from "./cli-harness.js";

const cwd = tempDir();

/** A value each flag's parser accepts (commander parses every occurrence before the command runs). */
const VALUES: Readonly<Record<string, string>> = {
  "--ref": "†state.x",
  "--value": "1",
  "--approved": `sha256:${"0".repeat(64)}`,
  "--status": "running",
  "--input": "{}",
  "--limits": "maxDepth=64",
};
const flagValue = (option: Option): string => option.argChoices?.[0] ?? VALUES[option.long ?? ""] ?? "1";

const takesOneValue = (option: Option): boolean =>
  (option.required || option.optional) &&
  !option.variadic &&
  option.long !== "--limits" &&
  option.long !== "--retention";

/** The arguments a command needs besides `option` (its required arguments and the other required flags). */
function needs(command: Command, option: Option): string[] {
  const args = command.registeredArguments.filter((arg) => arg.required).map(() => "x");
  const flags = command.options.filter((other) => other.mandatory && other !== option);
  // --tools whenever the command takes it, required or not
  const tools = command.options.find((other) => other.long === "--tools" && other !== option);
  const more = tools !== undefined && !flags.includes(tools) ? [tools] : [];
  return [...args, ...[...flags, ...more].flatMap((other) => [other.long ?? "", flagValue(other)])];
}

const cases = (await runnableCommands()).flatMap(({ path, command }) =>
  command.options.filter(takesOneValue).map((option) => ({ path, command, option })),
);

describe("a flag that takes one value, given twice, is a usage error naming it (review, stop 32)", () => {
  it("every command's one-value flags are checked (the table below is not empty)", () => {
    expect(cases.map(({ path, option }) => `${path.join(" ")} ${option.long}`)).toEqual(
      expect.arrayContaining([
        "run --tools",
        "run --store",
        "run --thread",
        "state get --ref",
        "runs list --limit",
      ]),
    );
  });

  it.each(
    cases.map(
      ({ path, command, option }) => [`${path.join(" ")} ${option.long}`, path, command, option] as const,
    ),
  )("%s", async (_, path, command, option) => {
    const twice = [option.long ?? "", flagValue(option), `${option.long}=${flagValue(option)}`];
    const result = await inProcess([...path, ...needs(command, option), ...twice], cwd);
    expectOneLineError(result, 2);
    expect(result.stderr).toContain(
      `error [USAGE] option '${option.flags}' was given twice: it takes one value`,
    );
    // the hint names every flag that may be repeated (review s41 r1 #4: --rerun was left out)
    expect(result.stderr).toContain(
      "only --limits, --retention, state summary's --ref and run/resume's --rerun may be repeated",
    );
  });

  it("is one JSON document with --format json, and names --format itself given twice", async () => {
    const store = await inProcessJson(["runs", "list", "--store", "memory", "--store", "sqlite:x.db"], cwd);
    expect(store.code).toBe(2);
    expect(store.json).toEqual({
      error: {
        code: "USAGE",
        message: expect.stringContaining("option '--store <url>' was given twice"),
        hint: expect.stringContaining("give it once"),
      },
    });
    const format = await inProcessJson(["runs", "list", "--format", "text"], cwd);
    expect(format.code).toBe(2);
    expect(format.json).toMatchObject({
      error: { message: expect.stringContaining("'--format <format>' was given twice") },
    });
  });

  it("the repeatable flags stay repeatable: --limits, and state summary's --ref", async () => {
    const limits = await inProcess(
      ["schema", "--tools", "x.mjs", "--limits", "maxDepth=9", "--limits", "maxCalls=9"],
      cwd,
    );
    expect(limits.stderr).not.toContain("was given");
    const refs = await inProcess(
      ["state", "summary", "--store", "memory", "--ref", "†state.a", "--ref", "†state.b"],
      cwd,
    );
    expect(refs.code).toBe(0);
  });
});
