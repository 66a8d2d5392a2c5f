import type { Limits } from "@obelisk/core";
import type { Command } from "commander";
import type { CommandContext } from "../command-context.js";
import { stopIfEscaped } from "../command-stop.js";
import { type CommonOptions, withFormat, withTools } from "../common-options.js";
import { EXIT, type ExitCode } from "../exit-codes.js";
import { withLimits } from "../limits-option.js";
import { loadTools } from "../load-tools.js";
import { createOutput } from "../output.js";
import { printRegistryWarnings } from "../registry-warnings.js";

interface SchemaOptions extends CommonOptions {
  readonly tools: string;
  /** `--limits`: the schema holds `_retry` to `maxRetryAttempts` and `maxRetryDelayMs`, as compile does. */
  readonly limits?: Partial<Limits>;
}

/** Registers `obelisk schema --tools <module>`. */
export function registerSchema(program: Command, context: CommandContext): void {
  const command = program.command("schema").description("print the plan JSON Schema for a tools module");
  withTools(command, true);
  withLimits(command);
  withFormat(command);
  command.action(async (options: SchemaOptions) => {
    context.exit(await schemaCommand(options, context));
  });
}

async function schemaCommand(options: SchemaOptions, { io }: CommandContext): Promise<ExitCode> {
  const output = createOutput(io, options.format);
  const tools = await loadTools(options.tools, io.cwd);
  // imported here, not at start-up (see render-graph-summary.ts)
  const { createToolRegistry, planJsonSchema } = await import("@obelisk/compiler");
  stopIfEscaped();
  const registry = createToolRegistry(tools);
  printRegistryWarnings(io, registry.warnings);
  const schema = planJsonSchema(registry, options.limits === undefined ? {} : { limits: options.limits });
  output.json(schema);
  output.line(JSON.stringify(schema, null, 2));
  return EXIT.ok;
}
