import { ObeliskError } from "@obelisk/core";
import type { SummarizeOptions } from "@obelisk/state";

/** Throws USAGE unless `value` is a string (the engine is called from untyped code and by LLM tool calls). */
export function requireString(value: unknown, what: string): string {
  if (typeof value !== "string")
    throw new ObeliskError(
      "USAGE",
      `${what} must be a string, not ${value === null ? "null" : typeof value}`,
    );
  return value;
}

/** Checks what `summarize` cannot: `refs`, when given, is an array of strings (a lone string is not split). */
export function checkSummarizeOptions(options: SummarizeOptions | undefined): SummarizeOptions | undefined {
  if (options === undefined) return undefined;
  if (typeof options !== "object" || options === null || Array.isArray(options))
    throw new ObeliskError("USAGE", "summarize options must be an object");
  const refs: unknown = options.refs;
  if (refs !== undefined && (!Array.isArray(refs) || refs.some((ref) => typeof ref !== "string")))
    throw new ObeliskError("USAGE", 'refs must be an array of reference strings, e.g. ["†state.user"]');
  return options;
}
