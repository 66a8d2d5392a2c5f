import { plural } from "@obelisk/core";
import { type Command, Option } from "commander";
import type { ValidationResult } from "obelisk";
import type { CommandContext } from "../command-context.js";
import { withCheckedThread, withFormat, withInput, withTools } from "../common-options.js";
import { displayBlock, jsonText } from "../display-text.js";
import { EXIT, type ExitCode } from "../exit-codes.js";
import { limitsWords, withLimits } from "../limits-option.js";
import { createOutput } from "../output.js";
import { type PlanCheckOptions, validatePlanFile } from "../read-plan.js";
import { withPlanPositions } from "../render-diagnostics.js";
import { printDiagnostics, printVerdict } from "../render-validation.js";
import { shellWord } from "../shell-word.js";

interface GraphOptions extends PlanCheckOptions {
  readonly as: "mermaid" | "dot" | "json";
}

/** Registers `obelisk graph <plan> --tools <module> [--as mermaid|dot|json]`. */
export function registerGraph(program: Command, context: CommandContext): void {
  const command = program
    .command("graph")
    .description("print the plan graph (Mermaid, Graphviz DOT or JSON)")
    .argument("<plan>", "plan file (JSON), or - to read the plan from standard input");
  withTools(command, true);
  withInput(command);
  withCheckedThread(command);
  command.addOption(
    new Option("--as <syntax>", "graph syntax").choices(["mermaid", "dot", "json"]).default("mermaid"),
  );
  withLimits(command);
  withFormat(command);
  command.action(async (plan: string, options: GraphOptions) => {
    context.exit(await graphCommand(plan, options, context));
  });
}

async function graphCommand(
  planPath: string,
  options: GraphOptions,
  { io }: CommandContext,
): Promise<ExitCode> {
  const output = createOutput(io, options.format);
  const { plan, input, result } = await validatePlanFile(planPath, options, io);
  if (!result.ok && result.compiled.calls.length === 0) {
    // json: each diagnostic with its line and column in the plan file, as validate and run give them
    output.json({ ok: false, planHash: result.planHash, diagnostics: withPlanPositions(result, plan) });
    printDiagnostics(output, result, plan, input);
    printVerdict(output, result);
    return EXIT.failed;
  }
  const graph = await render(result.compiled, options.as);
  if (options.format === "json") {
    output.json({
      as: options.as,
      ok: result.ok,
      graph: options.as === "json" ? JSON.parse(graph) : graph,
      ...(result.ok ? {} : { diagnostics: withPlanPositions(result, plan) }),
    });
  } else {
    // mermaid and dot label calls with the plan's paths: shown escaped, as every plan text
    output.line(displayBlock(graph.trimEnd()));
  }
  if (!result.ok) {
    const errors = result.diagnostics.filter((d) => d.severity === "error").length;
    const words = ["validate", planPath, "--tools", options.tools ?? ""];
    // the same thread: validate without one checks against an empty thread
    if (options.thread !== undefined) words.push("--store", options.store, "--thread", options.thread);
    const validate = [...words, ...limitsWords(options.limits)].map(shellWord);
    io.stderr.write(
      `warning: the plan has ${plural(errors, "error")}; see ${output.command} ${validate.join(" ")}\n`,
    );
  }
  return result.ok ? EXIT.ok : EXIT.failed;
}

/** The graph as text; the compiler is imported here, not at start-up (see render-graph-summary.ts). */
async function render(compiled: ValidationResult["compiled"], as: GraphOptions["as"]): Promise<string> {
  const { graphToDot, graphToJson, graphToMermaid } = await import("@obelisk/compiler");
  switch (as) {
    case "mermaid":
      return graphToMermaid(compiled);
    case "dot":
      return graphToDot(compiled);
    case "json":
      return jsonText(graphToJson(compiled));
  }
}
