import { type JsonObject, type Limits, ObeliskError, parseJsonText } from "@obelisk/core";
import { describeValue } from "./describe-value.js";

/** What the model is told to write when its `input_json` (or its `input` as text) is refused. */
const HINTS = {
  input_json:
    'write the run\'s input as the JSON text of an object, e.g. "{\\"userId\\": \\"u1\\"}" (read as †input.userId), or null (not the text "null") for no input',
  input:
    'give the run\'s input as an object, e.g. {"userId": "u1"} (read as †input.userId), or as the JSON text of one; leave it out for no input',
} as const;

/** An argument that holds the run's input as JSON text. */
export type InputTextArgument = keyof typeof HINTS;

/**
 * The run's input from JSON text of an object: `input_json` (the `openai-strict` form's way to give one,
 * decision 0032), or an `input` a model wrote as text (as it may the plan: the user review's L8). Read as
 * strictly as plan text (`parseJsonText`, held to the engine's limits). Text that is not JSON is refused
 * with the parser's code (`JSON_SYNTAX`, or `PLAN_LIMIT` over a limit) and message, its pointer in `data`;
 * JSON that is not an object, or an argument that is not a string, is `USAGE`. Each with a hint the model
 * can act on; the tools answer them as errors (never a throw to the host).
 */
export function inputFromJsonText(
  text: unknown,
  limits: Readonly<Limits>,
  argument: InputTextArgument = "input_json",
): JsonObject {
  const hint = HINTS[argument];
  if (typeof text !== "string")
    throw new ObeliskError(
      "USAGE",
      `${argument} must be a string (the JSON text of an object) or null, not ${describeValue(text)}`,
      { hint },
    );
  const parsed = parseJsonText(text, { limits });
  if (!parsed.ok) {
    const first = parsed.diagnostics[0];
    const code = first?.code ?? "JSON_SYNTAX";
    const where = first === undefined || first.pointer === "" ? "" : ` at ${first.pointer}`;
    // the parser's hints speak of a plan: the model gets the input's own
    throw new ObeliskError(code, `${argument} is not usable JSON text${where}: ${first?.message ?? ""}`, {
      hint,
      data: { argument, pointer: first?.pointer ?? "" },
    });
  }
  const value = parsed.value;
  if (typeof value !== "object" || value === null || Array.isArray(value))
    throw new ObeliskError(
      "USAGE",
      `${argument} must be the JSON text of an object, not of ${describeValue(value)}`,
      { hint },
    );
  // Array.isArray does not narrow a readonly array away
  return value as JsonObject;
}

/**
 * `validate_plan` and `run_plan` arguments with an `input` given as JSON text read into its object
 * (`inputFromJsonText`), as the engine reads a plan given as text; any other arguments as they are.
 */
export function withInputFromText(
  tool: string,
  args: Record<string, unknown>,
  limits: Readonly<Limits>,
): Record<string, unknown> {
  if ((tool !== "validate_plan" && tool !== "run_plan") || typeof args.input !== "string") return args;
  return { ...args, input: inputFromJsonText(args.input, limits, "input") };
}
