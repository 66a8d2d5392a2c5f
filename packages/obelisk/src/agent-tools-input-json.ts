import { type JsonObject, type Limits, ObeliskError, parseJsonText } from "@obelisk/core";
import { describeValue } from "./describe-value.js";

/** What the model is told to write when its `input_json` is refused. */
const HINT =
  'write the run\'s input as the JSON text of an object, e.g. "{\\"userId\\": \\"u1\\"}" (read as †input.userId), or null (not the text "null") for no input';

/**
 * The run's input from `input_json`, the JSON text of an object (the `openai-strict` form's way to give one,
 * decision 0032): read as strictly as plan text (`parseJsonText`, held to the engine's limits). Text that is
 * not JSON is refused with the parser's code (`JSON_SYNTAX`, or `PLAN_LIMIT` over a limit) and message,
 * its pointer in `data`; JSON that is not an object, or an argument that is not a string, is `USAGE`. Each
 * with a hint the model can act on; the tools answer them as errors (never a throw to the host).
 */
export function inputFromJsonText(text: unknown, limits: Readonly<Limits>): JsonObject {
  if (typeof text !== "string")
    throw new ObeliskError(
      "USAGE",
      `input_json must be a string (the JSON text of an object) or null, not ${describeValue(text)}`,
      { hint: HINT },
    );
  const parsed = parseJsonText(text, { limits });
  if (!parsed.ok) {
    const first = parsed.diagnostics[0];
    const code = first?.code ?? "JSON_SYNTAX";
    const where = first === undefined || first.pointer === "" ? "" : ` at ${first.pointer}`;
    // the parser's hints speak of a plan: the model gets the input's own
    throw new ObeliskError(code, `input_json is not usable JSON text${where}: ${first?.message ?? ""}`, {
      hint: HINT,
      data: { argument: "input_json", pointer: first?.pointer ?? "" },
    });
  }
  const value = parsed.value;
  if (typeof value !== "object" || value === null || Array.isArray(value))
    throw new ObeliskError(
      "USAGE",
      `input_json must be the JSON text of an object, not of ${describeValue(value)}`,
      { hint: HINT },
    );
  // Array.isArray does not narrow a readonly array away
  return value as JsonObject;
}
