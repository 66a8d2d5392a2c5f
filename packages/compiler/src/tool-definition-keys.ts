import { didYouMean, ObeliskError } from "@obelisk/core";

/** The keys of a tool definition (`ToolDefinition`). */
const DEFINITION_KEYS = [
  "name",
  "description",
  "input",
  "output",
  "outputPath",
  "outcomes",
  "concurrency",
  "timeoutMs",
  "retry",
  "fresh",
  "reuseForMs",
  "cost",
  "latent",
  "approvalParams",
  "idempotent",
  "run",
];

/** What other frameworks call a tool's implementation. */
const RUN_SYNONYMS = ["execute", "handler", "fn", "func", "invoke", "call", "impl"];

/**
 * Refuses a key a tool definition does not have: a tool without `run` is latent (its value comes from the
 * plan's `_output`), so an `execute` (other frameworks' name) or a misspelt `run` would make every call
 * `deferred` and the run `succeeded` without the tool ever running.
 */
export function checkDefinitionKeys(source: Record<string, unknown>, what: string): void {
  for (const key of Object.keys(source)) {
    if (DEFINITION_KEYS.includes(key)) continue;
    const hint =
      (RUN_SYNONYMS.includes(key) ? 'did you mean "run"?' : didYouMean(key, DEFINITION_KEYS)) ??
      `a tool definition has ${DEFINITION_KEYS.join(", ")}`;
    throw new ObeliskError("USAGE", `${what}: unknown key "${key}"`, { hint });
  }
}

/** `latent`, when given, must agree with the definition: `true` without `run`, `false` with one. */
export function checkLatent(latent: unknown, hasRun: boolean, what: string): void {
  if (latent === undefined) return;
  if (typeof latent !== "boolean")
    throw new ObeliskError("USAGE", `${what}: latent must be true or false`, {
      hint: "leave it out: a tool without run is latent",
    });
  if (latent && hasRun)
    throw new ObeliskError("USAGE", `${what}: latent: true, but it has a run function`, {
      hint: "a latent tool's value comes from the plan's _output: remove run, or latent",
    });
  if (!latent && !hasRun)
    throw new ObeliskError("USAGE", `${what}: latent: false, but it has no run function`, {
      hint: "give the tool a run(args, ctx) function",
    });
}
