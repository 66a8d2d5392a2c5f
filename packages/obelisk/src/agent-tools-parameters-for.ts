import { didYouMean, type JsonObject, ObeliskError } from "@obelisk/core";
import { withInputFromText } from "./agent-tools-input-json.js";
import { fromStrictArguments, openAiStrictParameters } from "./agent-tools-openai-strict.js";
import type { AgentToolsOptions } from "./agent-tools-options.js";
import { type ToolParameters, toolParameters } from "./agent-tools-parameters.js";
import { cutMessage } from "./cut-message.js";
import type { Engine } from "./engine-types.js";

/** The name of one of the four tools. */
export type ToolName = keyof ToolParameters;

/**
 * Refuses an argument the tool's parameters do not name (USAGE, with the nearest name): a misspelt
 * `ofset` or `inputs` was ignored, and the model got the first page or a run without its input.
 */
function refuseUnknownArguments(
  tool: ToolName,
  args: Record<string, unknown>,
  schema: JsonObject,
  also: readonly string[],
): void {
  const properties = schema.properties;
  const named = typeof properties === "object" && properties !== null ? Object.keys(properties) : [];
  const known = new Set([...named, ...also]);
  for (const key of Object.keys(args)) {
    if (known.has(key)) continue;
    throw new ObeliskError("USAGE", `unknown argument ${JSON.stringify(cutMessage(key, 80))} for ${tool}`, {
      hint: didYouMean(key, known) ?? `${tool}'s arguments are ${[...known].join(", ")}`,
    });
  }
}

/** Each tool's parameters in the form asked for, the plan's deviations, and how arguments are read. */
export function parametersFor(engine: Engine, form: AgentToolsOptions["parameters"]) {
  const checked =
    (
      parameters: ToolParameters,
      also: (tool: ToolName) => readonly string[],
      convert: (tool: ToolName, args: Record<string, unknown>) => Record<string, unknown>,
    ) =>
    (tool: ToolName, args: Record<string, unknown>): Record<string, unknown> => {
      refuseUnknownArguments(tool, args, parameters[tool], also(tool));
      // an input written as JSON text is read as the plan's text is (every form)
      return withInputFromText(tool, convert(tool, args), engine.limits);
    };
  if (form !== "openai-strict") {
    const parameters = toolParameters(engine, form ?? "strict");
    return {
      parameters,
      deviations: [],
      read: checked(
        parameters,
        () => [],
        (_tool, args) => args,
      ),
    };
  }
  const { deviations, ...parameters } = openAiStrictParameters(engine);
  return {
    parameters,
    deviations,
    read: checked(
      parameters,
      // a host calling execute itself may pass the input as an object (fromStrictArguments)
      (tool) => (tool === "validate_plan" || tool === "run_plan" ? ["input"] : []),
      // strict mode writes null for every argument left out: read as absent before anything else
      (tool, args) => fromStrictArguments(engine, tool, args),
    ),
  };
}
