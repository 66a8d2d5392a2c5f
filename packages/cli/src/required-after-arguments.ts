import type { Command } from "commander";

/**
 * Makes `command` name a missing argument before a missing required flag: `obelisk run` with nothing after
 * it says `missing required argument 'plan'`, not that `--tools` is missing — the plan is the first thing to
 * give (`obelisk run <plan> --tools <module>`). Commander checks required flags before the arguments, so
 * the required flags of a command that takes arguments are checked here instead, once the arguments are
 * there (before the action; commander's own message).
 */
export function requireOptionsAfterArguments(command: Command): void {
  if (!command.registeredArguments.some((argument) => argument.required)) return;
  const required = command.options.filter((option) => option.mandatory);
  if (required.length === 0) return;
  for (const option of required) option.makeOptionMandatory(false);
  command.hook("preAction", () => {
    const missing = required.find((option) => command.getOptionValue(option.attributeName()) === undefined);
    if (missing !== undefined)
      command.error(`error: required option '${missing.flags}' not specified`, {
        code: "commander.missingMandatoryOptionValue",
      });
  });
}
