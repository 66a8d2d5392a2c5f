import { formatReference } from "./format-path.js";
import type { OutputPath } from "./language-ast.js";

/** Canonical text of an output path: `†state.a || †state.b && †state.c` with single spaces around operators. */
export function formatOutputPath(outputPath: Pick<OutputPath, "alternatives">): string {
  return outputPath.alternatives
    .map((targets) => targets.map((target) => formatReference(target.kind, target.path)).join(" && "))
    .join(" || ");
}
