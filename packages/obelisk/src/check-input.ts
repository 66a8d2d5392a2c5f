import { createToolRegistry } from "@obelisk/compiler";
import { canonicalJson, type Diagnostic, type JsonObject } from "@obelisk/core";
import type { NormalizedInput } from "./normalize-input.js";

/** Checks values against JSON Schemas, compiling each schema once. */
export class InputChecker {
  private readonly cache = new Map<
    string,
    (value: unknown) => readonly { instancePath: string; message: string }[]
  >();

  /**
   * Diagnostics for an input that breaks the plan's `inputSchema` or the Input message's `schema`:
   * code PARAM_INVALID, pointer into the Input message (`/input/...`; `/...` for a plain input).
   */
  check(input: NormalizedInput, planSchema: JsonObject | undefined): Diagnostic[] {
    const diagnostics: Diagnostic[] = [];
    const base = input.message ? "/input" : "";
    for (const schema of [planSchema, input.schema]) {
      if (schema === undefined) continue;
      for (const issue of this.validator(schema)(input.input)) {
        diagnostics.push({
          code: "PARAM_INVALID",
          severity: "error",
          message: `input${issue.instancePath ? ` at ${issue.instancePath}` : ""}: ${issue.message}`,
          pointer: base + issue.instancePath,
        });
      }
    }
    return diagnostics;
  }

  private validator(schema: JsonObject) {
    const key = canonicalJson(schema);
    let check = this.cache.get(key);
    if (check === undefined) {
      const tool = createToolRegistry([{ name: "input", input: schema }]).get("input");
      check = tool === undefined ? () => [] : (value: unknown) => tool.validateInput(value);
      this.cache.set(key, check);
    }
    return check;
  }
}
