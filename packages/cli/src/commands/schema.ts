import type { StrictSchemaDeviation } from "@obelisk/compiler";
import type { Limits } from "@obelisk/core";
import type { Command } from "commander";
import type { CliIo } from "../cli-io.js";
import type { CommandContext } from "../command-context.js";
import { stopIfEscaped } from "../command-stop.js";
import { type CommonOptions, withFormat, withTools } from "../common-options.js";
import { displayText, jsonText } from "../display-text.js";
import { EXIT, type ExitCode } from "../exit-codes.js";
import { withLimits } from "../limits-option.js";
import { loadTools } from "../load-tools.js";
import { createOutput } from "../output.js";
import { printRegistryWarnings } from "../registry-warnings.js";

interface SchemaOptions extends CommonOptions {
  readonly tools: string;
  /** `--limits`: the schema holds `_retry` to `maxRetryAttempts` and `maxRetryDelayMs`, as compile does. */
  readonly limits?: Partial<Limits>;
  /** `--strict`: the schema within OpenAI's strict structured-outputs subset (decision 0028). */
  readonly strict?: boolean;
}

/** Registers `obelisk schema --tools <module> [--strict]`. */
export function registerSchema(program: Command, context: CommandContext): void {
  const command = program.command("schema").description("print the plan JSON Schema for a tools module");
  withTools(command, true);
  withLimits(command);
  command.option(
    "--strict",
    "the schema within OpenAI's strict structured-outputs subset (null means absent: fromStrictPlan); where it says less or more than the full schema is warned on stderr",
  );
  withFormat(command);
  command.action(async (options: SchemaOptions) => {
    context.exit(await schemaCommand(options, context));
  });
}

async function schemaCommand(options: SchemaOptions, { io }: CommandContext): Promise<ExitCode> {
  const output = createOutput(io, options.format);
  // imported here, not at start-up (see render-graph-summary.ts); before the tools, whose TypeScript module
  // hooks would otherwise see each of the compiler's modules load (see engine-session.ts)
  const { createToolRegistry, planJsonSchema, strictPlanJsonSchema } = await import("@obelisk/compiler");
  const { tools, implementations } = await loadTools(options.tools, io);
  stopIfEscaped();
  // implementations decide which tools are latent, which the schema says (a latent call takes `_output`)
  const registry = createToolRegistry(tools, implementations === undefined ? {} : { implementations });
  printRegistryWarnings(io, registry.warnings);
  const schemaOptions = options.limits === undefined ? {} : { limits: options.limits };
  if (options.strict === true) {
    const strict = strictPlanJsonSchema(registry, schemaOptions);
    // json: the whole answer in the one document; text: the schema alone on stdout, deviations on stderr
    output.json({ schema: strict.schema, deviations: strict.deviations });
    if (output.format === "text") printDeviations(io, strict.deviations);
    output.line(jsonText(strict.schema));
    return EXIT.ok;
  }
  const schema = planJsonSchema(registry, schemaOptions);
  output.json(schema);
  output.line(jsonText(schema));
  return EXIT.ok;
}

/** One warning line per deviation on stderr, as registry warnings are: `warning [<reason>] <where>: <message>`. */
function printDeviations(io: CliIo, deviations: readonly StrictSchemaDeviation[]): void {
  for (const deviation of deviations) {
    const where =
      deviation.tool === undefined
        ? "the whole schema"
        : `tool ${displayText(JSON.stringify(deviation.tool))}${deviation.schema === undefined ? "" : ` ${deviation.schema} schema`} at ${displayText(deviation.pointer === "" ? "/" : deviation.pointer)}`;
    io.stderr.write(`warning [${deviation.reason}] ${where}: ${displayText(deviation.message)}\n`);
  }
}
