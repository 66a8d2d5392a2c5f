import { type JsonValue, type Limits, ObeliskError, parseJsonText } from "@obelisk/core";
import { boundErrorData } from "./agent-tools-diagnostics.js";
import type { AgentToolFailure } from "./agent-tools-types.js";
import { cutMessage } from "./cut-message.js";

const asJson = <Answer extends JsonValue>(value: unknown): Answer =>
  JSON.parse(JSON.stringify(value)) as Answer;
/** Characters kept of the message and of the hint of an error the tools answer with. */
const ERROR_TEXT_CHARS = 1_000;

/**
 * The call's arguments, read from their JSON text when given as text (as OpenAI's and other providers'
 * APIs hand them, cut off when the model ran out of tokens): text that is not JSON is refused with the
 * JSON reader's code and a hint for the model.
 */
function argumentsOf(given: unknown, limits: Readonly<Limits>): unknown {
  if (typeof given !== "string") return given;
  const parsed = parseJsonText(given, { limits });
  if (parsed.ok) return parsed.value;
  const first = parsed.diagnostics[0];
  throw new ObeliskError(
    first?.code ?? "JSON_SYNTAX",
    `the tool's arguments are not valid JSON: ${first?.message ?? "invalid JSON"}`,
    {
      hint: "send the call again with the complete JSON object of its arguments (the text may have been cut off)",
    },
  );
}

/**
 * Runs a handler with the call's arguments (an object, or its JSON text); ObeliskErrors become
 * `{ ok: false, error: { code, message, data, hint? } }` for the model, and so do arguments that are not an
 * object (USAGE).
 */
export async function guarded<Answer extends JsonValue>(
  given: unknown,
  limits: Readonly<Limits>,
  handler: (args: Record<string, unknown>) => Promise<unknown>,
): Promise<Answer | AgentToolFailure> {
  try {
    const args = argumentsOf(given, limits);
    if (typeof args !== "object" || args === null || Array.isArray(args))
      throw new ObeliskError("USAGE", "the tool's arguments must be a JSON object");
    return asJson<Answer>(await handler(args as Record<string, unknown>));
  } catch (error) {
    if (!ObeliskError.is(error)) throw error;
    return asJson<AgentToolFailure>({
      ok: false,
      error: {
        code: error.code,
        // a message or hint quoting a huge value must not fill the model's context
        message: cutMessage(error.message, ERROR_TEXT_CHARS),
        // a plan's diagnostics (PLAN_INVALID) are bounded as validate_plan's are
        data: boundErrorData(error.data),
        ...(error.hint === undefined ? {} : { hint: cutMessage(error.hint, ERROR_TEXT_CHARS) }),
      },
    });
  }
}
