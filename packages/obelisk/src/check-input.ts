import { canonicalJson, type JsonObject, ObeliskError } from "@obelisk/core";
import type { EngineDiagnostic } from "./engine-types.js";
import { type CompiledInputSchema, InputSchemaCompiler } from "./input-schema-compiler.js";
import type { NormalizedInput } from "./normalize-input.js";

/** Compiled schemas kept (by canonical JSON); the oldest is dropped past this. */
const CACHE_SIZE = 100;

/** The hint of a check refused for its cost. */
const REFUSED_HINT =
  "simplify the schema (fewer nested anyOf/oneOf/allOf alternatives that refer to each other; uniqueItems only over strings, numbers or booleans; local $refs only), or send a smaller input";

/** Where the plan's input schema came from: the submitted document (its pointer) or an API option. */
export type SchemaSource = { readonly pointer: string } | "option";

/** Checks a run's input against its schemas, compiling each schema once (untrusted: see `InputSchemaCompiler`). */
export class InputChecker {
  private readonly compiler = new InputSchemaCompiler();
  private readonly cache = new Map<string, CompiledInputSchema>();

  /**
   * Diagnostics for the plan's `inputSchema` and the Input message's `schema`. A plan schema in the document
   * that is not usable gives PLAN_SHAPE under its pointer (`/inputSchema/...`); an input that breaks it gives
   * PARAM_INVALID at the failing keyword (`/inputSchema/properties/name/maxLength`), where in the input in
   * `inputPointer` (and in the message). A schema outside the document (the Input message's, or given as an option) has no pointer: its
   * violations are PARAM_INVALID at `""`, and an unusable one throws USAGE (it is the caller's input, not the plan).
   * With no input (`undefined`: validating before the input exists) only the plan schema's usability is checked.
   */
  check(
    input: NormalizedInput | undefined,
    planSchema: JsonObject | undefined,
    source: SchemaSource = { pointer: "/inputSchema" },
  ): EngineDiagnostic[] {
    const diagnostics: EngineDiagnostic[] = [];
    if (planSchema !== undefined) {
      const what = source === "option" ? "the input schema option" : "inputSchema";
      this.checkOne(input, planSchema, source === "option" ? undefined : source.pointer, what, diagnostics);
    }
    if (input?.schema !== undefined)
      this.checkOne(input, input.schema, undefined, "the Input message's schema", diagnostics);
    return diagnostics;
  }

  private checkOne(
    input: NormalizedInput | undefined,
    schema: JsonObject,
    base: string | undefined,
    what: string,
    out: EngineDiagnostic[],
  ): void {
    const compiled = this.compiled(schema);
    if (!compiled.ok) {
      if (base === undefined) {
        const reasons = compiled.problems.map((p) => `${p.pointer || "(root)"}: ${p.message}`).join("; ");
        throw new ObeliskError("USAGE", `${what} is not a usable JSON Schema: ${reasons}`);
      }
      for (const problem of compiled.problems) {
        out.push({
          code: "PLAN_SHAPE",
          severity: "error",
          message: `${what} is not a usable JSON Schema: ${problem.message}`,
          pointer: base + problem.pointer,
        });
      }
      return;
    }
    if (input === undefined) return;
    const result = compiled.check(input.input);
    if ("refused" in result) {
      out.push({
        code: "PLAN_LIMIT",
        severity: "error",
        message: `the input is not checked against ${what}: ${result.refused}`,
        pointer: base ?? "",
        hint: REFUSED_HINT,
      });
      return;
    }
    for (const issue of result.issues) {
      out.push({
        code: "PARAM_INVALID",
        severity: "error",
        message: `input${issue.instancePath ? ` at ${issue.instancePath}` : ""} breaks ${what}: ${issue.message}`,
        pointer: base === undefined ? "" : base + issue.schemaPointer,
        inputPointer: issue.instancePath,
      });
    }
    const more = result.total - result.issues.length;
    if (more > 0)
      out.push({
        code: "PARAM_INVALID",
        severity: "error",
        message: `the input breaks ${what} in ${more.toLocaleString("en-US")} more places (the first ${result.issues.length} are listed)`,
        pointer: base ?? "",
        inputPointer: "",
      });
  }

  private compiled(schema: JsonObject): CompiledInputSchema {
    let key: string | undefined;
    try {
      key = canonicalJson(schema);
    } catch {
      key = undefined; // (too deep to serialize: compiled uncached, and refused by the compiler)
    }
    const cached = key === undefined ? undefined : this.cache.get(key);
    if (cached !== undefined) return cached;
    const compiled = this.compiler.compile(schema);
    if (key !== undefined) {
      this.cache.set(key, compiled);
      if (this.cache.size > CACHE_SIZE) this.cache.delete(this.cache.keys().next().value as string);
    }
    return compiled;
  }
}
