import { formatReference } from "./format-path.js";
import type { InputExpression } from "./language-ast.js";

/** Canonical text of an input expression: `†a && †b || †c` with single spaces around operators. */
export function formatExpression(expression: InputExpression): string {
  return expression.alternatives
    .map((gate) => gate.map((reference) => formatReference(reference.kind, reference.path)).join(" && "))
    .join(" || ");
}
