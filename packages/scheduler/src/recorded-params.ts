import type { CompiledCall, ParamReference } from "@obelisk/compiler";
import { type JsonObject, type JsonValue, type Path, parameterExpressions, setOwn } from "@obelisk/core";

/** True when `kind` is one the host declares (not `input`, `state` or `calls`): its values are not recorded. */
function isHostKind(kind: string): boolean {
  return kind !== "input" && kind !== "state" && kind !== "calls";
}

/** True when the call has an operand of a host kind (a scan of its flat operand list, nothing allocated). */
export function readsHostKind(call: CompiledCall): boolean {
  const operands = call.operands;
  for (let at = 0; at < operands.length; at++)
    if (isHostKind((operands[at] as CompiledCall["operands"][number]).reference.kind)) return true;
  return false;
}

/** True when one of the parameter's operands (whole reference or template piece) is of a host kind. */
function readsHost(reference: ParamReference): boolean {
  return parameterExpressions(reference.value).some((expression) =>
    expression.alternatives.some((operands) => operands.some((operand) => isHostKind(operand.kind))),
  );
}

/**
 * The call's parameters as its record and events show them (decision 0063): every parameter string that
 * reads a host kind (`"†secrets.apiKey"`, `"Bearer {†secrets.apiKey}"`, at any depth, in any `||`
 * alternative) as the plan wrote it, instead of its value; the rest as resolved. `params` are the resolved
 * parameters, or those a confirm hook answered (a location they no longer hold is left out). Undefined when
 * the call reads no host kind: `params` are shown as they are. The copy shares what it does not change and
 * is frozen, as resolved parameters are.
 */
export function recordedParams(call: CompiledCall, params: JsonObject): JsonObject | undefined {
  if (!readsHostKind(call)) return undefined;
  let shown: JsonValue = params;
  for (const reference of call.references)
    if (reference.location.length > 0 && readsHost(reference))
      shown = replacedAt(shown, reference.location, 0, planText(call.params, reference.location));
  return shown as JsonObject;
}

/** The plan's string at `location` of the call's submitted parameters. */
function planText(params: JsonObject, location: Path): JsonValue {
  let node: JsonValue | undefined = params;
  for (const key of location) node = (node as Record<string | number, JsonValue>)[key];
  return node ?? null;
}

/** `root` with `value` at `location` (containers on the path copied and frozen), or `root` when it has none. */
function replacedAt(root: JsonValue, location: Path, depth: number, value: JsonValue): JsonValue {
  if (typeof root !== "object" || root === null) return root;
  const key = location[depth] as string | number;
  if (!Object.hasOwn(root, key) || Array.isArray(root) !== (typeof key === "number")) return root;
  const item = (root as Record<string | number, JsonValue>)[key] as JsonValue;
  const next = depth === location.length - 1 ? value : replacedAt(item, location, depth + 1, value);
  if (next === item) return root;
  const copy = Array.isArray(root) ? root.slice() : { ...root };
  if (Array.isArray(copy)) copy[key as number] = next;
  else setOwn(copy, key as string, next);
  return Object.freeze(copy);
}
