import type { Diagnostic, JsonObject, JsonValue } from "@obelisk/core";
import { appendPointer, didYouMean, isOutputMethod } from "@obelisk/core";
import type { HintBudget } from "./hint-budget.js";
import { makeDiagnostic } from "./make-diagnostic.js";
import type { RegisteredTool } from "./registered-tool.js";
import { isPlainObject } from "./to-json-schema.js";

/**
 * Meta-properties a plan may write without their `_` by mistake, by that name. Not `description`: it is a
 * common real parameter, and a missing `_description` only costs a summary line.
 */
const META_LIKE: ReadonlySet<string> = new Set([
  "tool",
  "id",
  "outputPath",
  "outputMethod",
  "output",
  "rerun",
  "timeoutMs",
  "retry",
]);

/** First characters of the names above (`o`, `t`, `i`, `r`): most parameters are passed over on it. */
function mayBeMetaLike(key: string): boolean {
  const first = key.charCodeAt(0);
  return first === 0x6f || first === 0x74 || first === 0x69 || first === 0x72;
}

/** True when the input schema lists `key` among its parameters. */
function declared(schema: JsonObject, key: string): boolean {
  const properties = schema.properties;
  return isPlainObject(properties) && Object.hasOwn(properties, key);
}

/**
 * Did-you-means for stripped parameters per plan (per arriving call when streaming): each compares the
 * key with every declared name, so 8,000 unknown keys for a zod object of 2,000 took 6.2 s.
 */
export const MAX_STRIPPED_HINTS = 200;
/** The declared names of each `properties` object (a registry's schemas do not change). */
const declaredKeysOf = new WeakMap<object, readonly string[]>();

/** The names `properties` declares, read once per schema. */
function declaredKeys(properties: unknown): readonly string[] {
  if (!isPlainObject(properties)) return [];
  let keys = declaredKeysOf.get(properties);
  if (keys === undefined) {
    keys = Object.keys(properties);
    declaredKeysOf.set(properties, keys);
  }
  return keys;
}

/** `didYouMean` within the plan's budget (`hints`, of MAX_STRIPPED_HINTS). */
function strippedHint(key: string, known: readonly string[], hints: HintBudget): string | undefined {
  return hints.take() ? didYouMean(key, known) : undefined;
}

/** True for a value only a meta-property would hold: an output path (`†…`) or an output method's name. */
function unmistakable(key: string, value: JsonValue): boolean {
  if (typeof value !== "string") return false;
  if (key === "outputPath") return value.charCodeAt(0) === 0x2020 && value.charCodeAt(1) !== 0x2020;
  return key === "outputMethod" && isOutputMethod(value);
}

/**
 * PARAM_UNKNOWN for a parameter named like a meta-property without its `_` (`outputPath`, `id`, `tool`, …)
 * that the tool's input schema does not declare, with the hint `did you mean "_outputPath"?`. Such a key
 * was taken as a parameter: `outputPath: "†state.x"` got REF_UNRESOLVED (nothing writes †state.x) or, once
 * the path existed, ran and wrote `†calls.<id>` instead.
 * - A tool whose input is closed (`closedInput`: `additionalProperties: false`, a stripping or strict zod
 *   object): any of these names it does not list (it would be refused, or never reach the tool).
 * - A tool that takes extra keys (no `properties`; a JSON Schema that lists `properties` without closing
 *   them, JSON Schema's default; extras opened on purpose), where `id` or `output` may well be real
 *   parameters that reach the tool: only an `outputPath` holding an output path and an `outputMethod`
 *   holding a method name.
 * True when reported: the caller then drops the key from the parameters (its value is no parameter, so
 * no reference or schema diagnostic of it follows).
 */
export function checkMetaLikeParam(
  key: string,
  value: JsonValue,
  tool: RegisteredTool | undefined,
  pointer: string,
  callId: string | undefined,
  out: Diagnostic[],
): boolean {
  if (!mayBeMetaLike(key) || !META_LIKE.has(key)) return false;
  if (tool === undefined) return unknownToolMetaLike(key, value, pointer, callId, out);
  const schema = tool.inputSchema;
  if (tool.closedInput ? declared(schema, key) : !unmistakable(key, value)) return false;
  const message = `tool "${tool.name}" has no parameter "${key}"`;
  const hint = `did you mean "_${key}"?`;
  out.push(makeDiagnostic("PARAM_UNKNOWN", message, appendPointer(pointer, key), { callId, hint }));
  return true;
}

/**
 * For a call whose tool is unknown (no `_tool`, or a name no tool has: the call is refused already), an
 * `outputPath` holding an output path or an `outputMethod` holding a method name: PARAM_UNKNOWN with
 * `did you mean "_outputPath"?`, and the key is dropped — its value was read as a parameter's reference
 * (`tool` + `outputPath` gave a spurious REF_UNRESOLVED, decision 0097). Other keys: false.
 */
function unknownToolMetaLike(
  key: string,
  value: JsonValue,
  pointer: string,
  callId: string | undefined,
  out: Diagnostic[],
): boolean {
  if (!unmistakable(key, value)) return false;
  const message = `"${key}" is no parameter here: meta-properties start with "_"`;
  const hint = `did you mean "_${key}"?`;
  out.push(makeDiagnostic("PARAM_UNKNOWN", message, appendPointer(pointer, key), { callId, hint }));
  return true;
}

/**
 * PARAM_UNKNOWN for a parameter that a stripping zod object (`z.object`) does not declare: the tool is
 * closed (`closedInput`) but its JSON Schema is not (zod's input schema leaves `additionalProperties`
 * out), so ajv accepts the key and zod drops it before the tool runs — a misspelt optional parameter
 * (`limt: 2`) was silently ignored. Closed JSON Schemas are left to ajv (same code and hint). True when
 * reported: the caller drops the key from the parameters.
 */
export function checkStrippedParam(
  key: string,
  tool: RegisteredTool | undefined,
  pointer: string,
  callId: string | undefined,
  out: Diagnostic[],
  hints: HintBudget,
): boolean {
  if (tool === undefined || !tool.closedInput) return false;
  const schema = tool.inputSchema;
  if (schema.additionalProperties === false || schema.unevaluatedProperties === false) return false;
  if (declared(schema, key)) return false;
  const known = declaredKeys(schema.properties);
  const hint =
    misplacedKeyHint(key, tool.name) ??
    strippedHint(key, known, hints) ??
    (known.length === 0
      ? "the tool takes no parameters"
      : `its parameters: ${known.slice(0, 10).join(", ")}${known.length > 10 ? ", …" : ""}`);
  const message = `unknown parameter "${key}" (tool "${tool.name}" does not declare it, and its zod object drops it)`;
  out.push(makeDiagnostic("PARAM_UNKNOWN", message, appendPointer(pointer, key), { callId, hint }));
  return true;
}

/** Keys a model nests a call's parameters under (function-calling forms), decision 0097. */
const PARAMETER_WRAPPERS: ReadonlySet<string> = new Set([
  "params",
  "parameters",
  "arguments",
  "args",
  "input",
]);

/**
 * The hint for an undeclared key a model writes for a part of the call (decision 0097): the parameters
 * nested under `params` / `arguments` / `input` (the fix the `{name, arguments}` form gets), or a
 * `description` meant as `_description`. Undefined for any other key.
 */
export function misplacedKeyHint(key: string, tool: string): string | undefined {
  if (PARAMETER_WRAPPERS.has(key))
    return `write { "_tool": "${tool}", …its arguments as keys }: a plan call takes its parameters as keys of the call itself, not inside "${key}"`;
  return key === "description"
    ? 'did you mean "_description"? (a call\'s description is the meta-property "_description")'
    : undefined;
}

/**
 * The hint of PARAM_MISSING for `name` in a call that nests an object under `params` / `arguments` /
 * `input` / … (a key `schema` does not declare), decision 0101: the parameter belongs at the call's top
 * level, the fix the nesting key's PARAM_UNKNOWN gives. Undefined when the call nests nothing.
 */
export function nestedParameterHint(
  raw: JsonObject,
  name: string,
  schema: JsonObject,
  tool: string,
): string | undefined {
  for (const key of PARAMETER_WRAPPERS) {
    if (!Object.hasOwn(raw, key) || !isPlainObject(raw[key]) || declared(schema, key)) continue;
    const call = `{ "_tool": ${JSON.stringify(tool)}, ${JSON.stringify(name)}: … }`;
    const where = `a plan call takes its parameters as keys of the call itself, not inside "${key}"`;
    return Object.hasOwn(raw[key], name)
      ? `${JSON.stringify(name)} is inside "${key}": write it as a key of the call, ${call} (${where})`
      : `${where}: write ${call}`;
  }
  return undefined;
}
