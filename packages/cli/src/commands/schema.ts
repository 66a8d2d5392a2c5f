import type { Command } from "commander";
import type { CommandContext } from "../command-context.js";
import { stopIfEscaped } from "../command-stop.js";
import { type CommonOptions, withFormat, withTools } from "../common-options.js";
import { EXIT, type ExitCode } from "../exit-codes.js";
import { loadTools } from "../load-tools.js";
import { createOutput } from "../output.js";
import { printRegistryWarnings } from "../registry-warnings.js";

/** Registers `obelisk schema --tools <module>`. */
export function registerSchema(program: Command, context: CommandContext): void {
  const command = program.command("schema").description("print the plan JSON Schema for a tools module");
  withTools(command, true);
  withFormat(command);
  command.action(async (options: CommonOptions & { readonly tools: string }) => {
    context.exit(await schemaCommand(options, context));
  });
}

async function schemaCommand(
  options: CommonOptions & { readonly tools: string },
  { io }: CommandContext,
): Promise<ExitCode> {
  const output = createOutput(io, options.format);
  const tools = await loadTools(options.tools, io.cwd);
  // imported here, not at start-up (see render-graph-summary.ts)
  const { createToolRegistry, planJsonSchema } = await import("@obelisk/compiler");
  stopIfEscaped();
  const registry = createToolRegistry(tools);
  printRegistryWarnings(io, registry.warnings);
  const schema = planJsonSchema(registry);
  output.json(schema);
  output.line(JSON.stringify(schema, null, 2));
  return EXIT.ok;
}
