import type { ObeliskError } from "@obelisk/core";
import type { Command } from "commander";
import { usageError } from "./usage-error.js";

const subcommand = (command: Command, word: string): Command | undefined =>
  command.commands.find((c) => c.name() === word || c.aliases().includes(word));

/** The command words of the arguments (options and the value of `--format` left out). */
function commandWords(args: readonly string[]): string[] {
  const words: string[] = [];
  for (let index = 0; index < args.length; index++) {
    const arg = args[index] as string;
    if (arg === "--") break;
    if (arg === "--format") index++;
    else if (!arg.startsWith("-")) words.push(arg);
  }
  return words;
}

/**
 * `help <command…>` (also `obelisk state help get`) as `<command…> --help`: commander's help command reads
 * one word only (`help state get` showed the help of `state`, `help state nothing` too), and `help nothing`
 * read "missing command". A topic that is no command is a usage error naming the commands there are (its
 * hint starts with `command`: see `cliCommand`). Undefined when the arguments ask for no help topic.
 */
export function helpArguments(
  program: Command,
  args: readonly string[],
  command: string,
): string[] | ObeliskError | undefined {
  let at = program;
  const path: string[] = [];
  let asking = false;
  for (const word of commandWords(args)) {
    const sub = subcommand(at, word);
    if (sub !== undefined) {
      at = sub;
      path.push(word);
    } else if (word === "help" && at.commands.length > 0) {
      asking = true;
    } else if (asking) {
      const where = [command, ...path].join(" ");
      const names = at.commands.map((c) => c.name()).join(", ");
      return usageError(
        `unknown command '${[...path, word].join(" ")}'`,
        undefined,
        `${where} has: ${names}; see ${where} --help`,
      );
    } else {
      return undefined;
    }
  }
  return asking ? [...path, "--help"] : undefined;
}

/**
 * The usage error when commander asks for help as an error: no command at all, or a command group without
 * its subcommand (`obelisk state`); the help it points to starts with `command`.
 */
export function missingCommand(program: Command, args: readonly string[], command: string): ObeliskError {
  let at = program;
  const path: string[] = [];
  for (const word of commandWords(args)) {
    const sub = subcommand(at, word);
    if (sub === undefined) break;
    at = sub;
    path.push(word);
  }
  return usageError(`missing command: see ${[command, ...path].join(" ")} --help`);
}

/**
 * commander's refusal of an unknown command (`obelisk frobnicate`, `obelisk state frob`), with the hint a help
 * topic that is no command gets: the commands there are (review s41 r2 #15). `message` keeps commander's
 * "Did you mean …?" when it has one.
 */
export function unknownCommand(
  program: Command,
  args: readonly string[],
  command: string,
  message: string,
): ObeliskError {
  let at = program;
  const path: string[] = [];
  // down the command groups the words name: the unknown word is one of the last group's
  for (const word of commandWords(args)) {
    const sub = subcommand(at, word);
    if (sub === undefined || sub.commands.length === 0) break;
    at = sub;
    path.push(word);
  }
  const where = [command, ...path].join(" ");
  const names = at.commands.map((c) => c.name()).join(", ");
  return usageError(message, undefined, `${where} has: ${names}; see ${where} --help`);
}
