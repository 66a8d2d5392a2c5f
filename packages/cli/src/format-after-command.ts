import type { Command } from "commander";

/**
 * The arguments with `--format` moved after the command when it was given before it
 * (`obelisk --format json runs list`, `obelisk state --format json get …`): only leaf commands take
 * `--format`. Given where no command follows (`obelisk --format json`, `obelisk state --format json`),
 * it is dropped, and the usage error that follows is still printed in that format (see `sniffFormat`).
 * `--` and what follows it stay last.
 */
export function formatAfterCommand(program: Command, argv: readonly string[]): string[] {
  const front: string[] = [];
  const moved: string[] = [];
  let command = program;
  let index = 0;
  while (index < argv.length && command.commands.length > 0) {
    const arg = argv[index] as string;
    if (arg === "--") break;
    if (arg === "--format" && index + 1 < argv.length) {
      moved.push(arg, argv[index + 1] as string);
      index += 2;
      continue;
    }
    index++;
    if (arg.startsWith("--format=")) moved.push(arg);
    else front.push(arg);
    if (arg.startsWith("-") || arg === "help") continue;
    const sub = command.commands.find((c) => c.name() === arg || c.aliases().includes(arg));
    if (sub === undefined) break;
    command = sub;
  }
  const rest = argv.slice(index);
  if (moved.length === 0) return [...argv];
  if (command.commands.length > 0) return [...front, ...rest];
  const end = rest.indexOf("--");
  return end === -1
    ? [...front, ...rest, ...moved]
    : [...front, ...rest.slice(0, end), ...moved, ...rest.slice(end)];
}
