import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { ToolRegistry } from "@obelisk/compiler";
import { compile, createToolRegistry, planJsonSchema } from "@obelisk/compiler";
import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";

const examples = fileURLToPath(new URL("../../../examples/", import.meta.url));

/** Each example with a tools module, and its plan documents (every `.json` but inputs). */
const cases = readdirSync(examples, { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && readdirSync(`${examples}${entry.name}`).includes("tools.ts"))
  .map((entry) => ({
    name: entry.name,
    plans: readdirSync(`${examples}${entry.name}`).filter(
      (f) => f.endsWith(".json") && !f.startsWith("input"),
    ),
  }));

/** Whether the compiler accepts a plan (no input or state given: REF_UNRESOLVED is no verdict). */
function compilerAccepts(plan: unknown, registry: ToolRegistry): boolean {
  return compile(plan, registry).diagnostics.every(
    (d) => d.severity !== "error" || d.code === "REF_UNRESOLVED",
  );
}

describe("the plan JSON Schema accepts every example plan the compiler accepts", () => {
  it("has examples to check", () => {
    expect(cases.flatMap((c) => c.plans).length).toBeGreaterThanOrEqual(7);
  });
  it.each(cases)("$name", async ({ name, plans }) => {
    const tools = ((await import(`${examples}${name}/tools.ts`)) as { default: unknown }).default;
    const registry = createToolRegistry(tools);
    const validate = new Ajv2020({ strict: false }).compile(planJsonSchema(registry));
    let checked = 0;
    for (const file of plans) {
      const plan: unknown = JSON.parse(readFileSync(`${examples}${name}/${file}`, "utf8"));
      if (!compilerAccepts(plan, registry)) continue;
      checked += 1;
      expect({ file, ok: validate(plan), errors: validate.errors ?? null }).toEqual({
        file,
        ok: true,
        errors: null,
      });
    }
    // broken-plan is the one example whose plan is meant to fail.
    expect(checked > 0).toBe(name !== "broken-plan");
  });
});
