import { appendPointer, type JsonObject, type JsonValue, ObeliskError, thrownMessage } from "@obelisk/core";
import type { z } from "zod";
import type { OutputParse } from "./registered-tool.js";
import type { SchemaCheck, SchemaIssue } from "./schema-validator.js";
import { isZodSchema } from "./to-json-schema.js";
import type { ToolContext } from "./tool-definition.js";

type Run = (args: JsonObject, ctx: ToolContext) => unknown;

/** A zod issue as a schema issue (keyword `zod`: a check JSON Schema cannot express, e.g. a refinement). */
function toIssue(issue: z.core.$ZodIssue): SchemaIssue {
  let instancePath = "";
  for (const segment of issue.path) instancePath = appendPointer(instancePath, String(segment));
  return {
    instancePath,
    keyword: "zod",
    schemaPath: "",
    params: { code: issue.code },
    message: issue.message,
  };
}

/**
 * A tool defined with a zod input schema gets what zod's `parse` gives (SPEC §9: `run` is typed with the
 * schema's output): defaults filled, transforms and coercions applied, refinements checked. The JSON Schema
 * check (compile time and dispatch) has already passed; what zod still refuses (a refinement) fails the
 * call with PARAM_INVALID, before the implementation runs — and so does a parse that throws (an `async`
 * refinement in a synchronous parse, a transform that throws): the input is refused, the tool is not to blame.
 */
export function runWithZodInput(schema: unknown, run: Run | undefined): Run | undefined {
  if (run === undefined || !isZodSchema(schema)) return run;
  return (args, ctx) => {
    let parsed: ReturnType<typeof schema.safeParse>;
    try {
      parsed = schema.safeParse(args);
    } catch (error) {
      throw new ObeliskError("PARAM_INVALID", `the zod input schema threw: ${thrownMessage(error)}`, {
        cause: error,
      });
    }
    if (!parsed.success) {
      const first = toIssue(parsed.error.issues[0] as z.core.$ZodIssue);
      throw new ObeliskError(
        "PARAM_INVALID",
        `parameter ${first.instancePath || "/"}: ${first.message} (the tool's zod schema)`,
      );
    }
    return run(parsed.data as JsonObject, ctx);
  };
}

/**
 * The output parse of a tool with a zod output schema (decision 0052): the JSON Schema check, then zod's own
 * `safeParse` (its refinements), whose value is what is stored — unknown keys of a `z.object` dropped,
 * defaults filled, transforms applied (the caller checks that value is JSON again). A parse that throws (a
 * transform or refinement that throws) is an issue, never a throw.
 */
export function zodOutputParse(schema: z.ZodType, check: SchemaCheck): OutputParse {
  return (value) => {
    const issues = check(value);
    if (issues.length > 0) return { ok: false, issues };
    let parsed: ReturnType<typeof schema.safeParse>;
    try {
      parsed = schema.safeParse(value);
    } catch (error) {
      const message = `the zod output schema threw: ${thrownMessage(error)}`;
      return {
        ok: false,
        issues: [{ instancePath: "", keyword: "zod", schemaPath: "", params: {}, message }],
      };
    }
    return parsed.success
      ? { ok: true, value: parsed.data }
      : { ok: false, issues: parsed.error.issues.map((issue) => toIssue(issue as z.core.$ZodIssue)) };
  };
}

/** The output check of a tool with a zod output schema: its parse's issues (see {@link zodOutputParse}). */
export function outputCheckOf(parse: OutputParse): SchemaCheck {
  return (value) => {
    const parsed = parse(value as JsonValue);
    return parsed.ok ? [] : parsed.issues;
  };
}
