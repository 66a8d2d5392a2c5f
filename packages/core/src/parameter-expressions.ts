import type { InputExpression, ParameterValue } from "./language-ast.js";

/** The input expressions of a parameter value: a reference's one, a template's `{…}` parts, a literal's none. */
export function parameterExpressions(value: ParameterValue): readonly InputExpression[] {
  if (value.type === "reference") return [value.expression];
  if (value.type === "literal") return [];
  return value.parts.filter((part): part is InputExpression => typeof part !== "string");
}
