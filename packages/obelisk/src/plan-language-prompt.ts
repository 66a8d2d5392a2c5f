import { isToolRegistry, type ToolRegistry } from "@obelisk/compiler";
import { ObeliskError } from "@obelisk/core";
import { hostKindsOf } from "./engine-host-kinds.js";
import type { Engine } from "./engine-types.js";
import { examplePlan } from "./example-plan.js";
import { hostKindsLine } from "./host-kinds-line.js";

/** Options of {@link planLanguagePrompt}. */
export interface PlanLanguagePromptOptions {
  /**
   * The model works through `agentTools` (default true): the prompt names `validate_plan`, `run_plan`,
   * `list_variables` and `get_variable` and says when to use each. False: the host runs the plans the
   * model writes, and the prompt says nothing of tools.
   */
  readonly agentTools?: boolean;
}

/** The most characters the primer has, whatever the registry and kinds (its documented bound). */
const MAX_PROMPT_CHARS = 4_000;
/** The most characters of the line on the host kinds. */
const HOST_KINDS_CHARS = 600;

/** The plan language in short rules, each one a behaviour the engine's tests hold it to. */
const RULES = [
  'You act by writing plans for Obelisk. A plan is JSON: {"type":"plan","plan":[call, …]}. A call runs as soon as everything it reads exists, calls that do not depend on each other run in parallel, and the order of the list means nothing.',
  '- A call: {"_tool":"<tool name>", <the tool\'s parameters>, "_id":"<a name: letters, digits, _ or ->", "_outputPath":"†state.<path>"}. Other keys that start with _: "_outputMethod", "_rerun", "_timeoutMs", "_retry", "_description".',
  '- A parameter that is a whole reference gets the value itself, its JSON type kept: "†input.<key>" (the run\'s input), "†state.<path>" (the thread\'s state, kept from run to run), "†calls.<id>" (the output of a call that has no _outputPath: kept for a while only, so give what later turns need an _outputPath into †state). Paths: "†state.user.name", "†state.items[0]". References start with † (U+2020).',
  '- Inside text, one pair of braces and no spaces: "Hello {†state.user.name}!" (not {{…}}). "††" is a literal †.',
  '- "†state.a || †state.b" takes the first that exists; "†state.a && †state.b" waits for both and gives the last.',
  '- "_outputPath" says where the result goes: "†state.a" (objects on the way are created); "†state.a && †state.b" writes both; "†state.ok || †state.failed" writes the first when the tool succeeds, and its error ({"name","message","code"}) to the last when it fails (the run goes on). "_outputMethod": "set" (default), "merge", "assign", "push" (append the value to a list) or "concat" (append a list\'s items).',
  '- Read a call\'s output as it is, "†calls.<id>" (not "†calls.<id>.output"), or where its _outputPath wrote it. Two calls may not write the same path, unless each pushes, concats, merges or assigns.',
  "- †state.approvals.<name> is given by a person: a plan cannot write it, and a call that reads it waits until it is given.",
  '- A call that already ran on this thread with the same tool, parameters, _outputPath and _outputMethod is not run again (status "satisfied", its result stays where it was written) unless its tool always runs; add "_rerun": true to run it again (a tool that must not repeat, such as a payment, refuses "_rerun": it was done once).',
];

/** The rule on references (`RULES[2]`): the host kinds' line follows it. */
const REFERENCES_RULE = 2;

const WITH_TOOLS = [
  "Tools: validate_plan lists every problem of a plan at once (most with a hint to fix it) and runs nothing; run_plan runs a plan and answers each call's status and where it wrote (an invalid plan runs nothing: fix it by its diagnostics and send it again).",
  'Read what you wrote with get_variable {"reference":"†state.<path>"}; list_variables lists what the thread holds. A later plan reads those values by reference ("†state.report"): do not copy them into the plan.',
];

const WITHOUT_TOOLS = [
  'What a run wrote stays in the thread: a later plan reads it by reference ("†state.report"), it need not be copied into the plan.',
];

/** The registry of an engine or the registry itself; USAGE for anything else. */
function registryOf(source: Pick<Engine, "registry"> | ToolRegistry): ToolRegistry {
  if (isToolRegistry(source)) return source;
  const registry = (source as { registry?: unknown } | null)?.registry;
  if (isToolRegistry(registry)) return registry;
  throw new ObeliskError("USAGE", "planLanguagePrompt(source) takes an engine or its tool registry", {
    hint: "pass the engine (planLanguagePrompt(engine)) or engine.registry",
  });
}

/** USAGE for options that are not an object of known keys, or an `agentTools` that is not a boolean. */
function checkOptions(options: unknown): void {
  if (typeof options !== "object" || options === null || Array.isArray(options))
    throw new ObeliskError("USAGE", "planLanguagePrompt's options must be an object");
  for (const [key, value] of Object.entries(options)) {
    if (key !== "agentTools")
      throw new ObeliskError("USAGE", `unknown option ${JSON.stringify(key)} of planLanguagePrompt`, {
        hint: 'the only option is "agentTools" (true or false)',
      });
    if (value !== undefined && typeof value !== "boolean")
      throw new ObeliskError("USAGE", "planLanguagePrompt's agentTools must be true or false");
  }
}

/**
 * A system-prompt primer for a model that writes Obelisk plans: the plan language in a few rules, the
 * engine's host kinds (and which parameters may read a scoped one), a worked example built from the engine's
 * own tools (it validates against them), and, with `agentTools` (default), what each agent tool is for.
 * Deterministic, at most 4,000 characters whatever the registry and kinds.
 */
export function planLanguagePrompt(
  source: Pick<Engine, "registry"> | ToolRegistry,
  options: PlanLanguagePromptOptions = {},
): string {
  checkOptions(options);
  const registry = registryOf(source);
  const limits = isToolRegistry(source) ? undefined : (source as Partial<Pick<Engine, "limits">>).limits;
  const example = examplePlan(registry, limits === undefined ? {} : { limits });
  const lines = [...RULES, ...(options.agentTools === false ? WITHOUT_TOOLS : WITH_TOOLS)];
  if (example !== undefined) {
    const calls = example.plan.plan.map((call) => `  ${JSON.stringify(call)}`).join(",\n");
    lines.push(
      `Example with this engine's tools:\n{"type":"plan","plan":[\n${calls}\n]}\n${example.explanation}`,
    );
  }
  // the host kinds a plan may read, after the references it always may (decision 0077), in what is left
  const kinds = hostKindsOf(registry);
  const room = Math.min(HOST_KINDS_CHARS, MAX_PROMPT_CHARS - lines.join("\n").length - 1);
  const kindsLine = kinds === undefined ? undefined : hostKindsLine(kinds, room);
  if (kindsLine !== undefined) lines.splice(REFERENCES_RULE + 1, 0, kindsLine);
  return lines.join("\n");
}
