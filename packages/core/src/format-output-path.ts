import { formatReference } from "./format-path.js";
import type { OutputPath, OutputTarget } from "./language-ast.js";

/** Joins targets with ` && ` and alternatives with ` || `, each target written by `textOf`. */
export function joinOutputPath(
  alternatives: OutputPath["alternatives"],
  textOf: (target: OutputTarget) => string,
): string {
  let text = "";
  for (let index = 0; index < alternatives.length; index++) {
    if (index > 0) text += " || ";
    const targets = alternatives[index] as readonly OutputTarget[];
    for (let position = 0; position < targets.length; position++) {
      if (position > 0) text += " && ";
      text += textOf(targets[position] as OutputTarget);
    }
  }
  return text;
}

/** Canonical text of an output path: `†state.a || †state.b && †state.c` with single spaces around operators. */
export function formatOutputPath(outputPath: Pick<OutputPath, "alternatives">): string {
  return joinOutputPath(outputPath.alternatives, (target) => formatReference(target.kind, target.path));
}
