import type { CliIo } from "./cli-io.js";

/** The package script that runs the CLI: the repository's root script, or a project's own of that name. */
const SCRIPT = "obelisk";

/** How each package manager runs that script with arguments (npm hands on only what follows `--`). */
const RUN_SCRIPT: ReadonlyMap<string, string> = new Map([
  ["pnpm", `pnpm ${SCRIPT}`],
  ["npm", `npm run ${SCRIPT} --`],
  ["yarn", `yarn ${SCRIPT}`],
]);

/**
 * How the commands the CLI suggests start: `obelisk`, or, when a package script named `obelisk` started it
 * (`pnpm obelisk` in a checkout), that script as its package manager runs it with arguments: `pnpm obelisk`,
 * `npm run obelisk --`, `yarn obelisk`. Package managers say which script runs (`npm_lifecycle_event`) and
 * who they are (`npm_config_user_agent`); with another or none, the bin's own name.
 */
export function cliCommand(env: CliIo["env"]): string {
  if (env.npm_lifecycle_event !== SCRIPT) return SCRIPT;
  const manager = /^([\w-]+)\//.exec(env.npm_config_user_agent ?? "")?.[1] ?? "";
  return RUN_SCRIPT.get(manager) ?? SCRIPT;
}
