import type { CompiledCall, ParamReference } from "@obelisk/compiler";
import {
  type InputExpression,
  type JsonObject,
  type JsonValue,
  type Path,
  parseParameterString,
  setOwn,
  toJsonValue,
} from "@obelisk/core";
import type { WorkingContext } from "./working-context.js";

const EMPTY: JsonObject = Object.freeze({});

/** The value of an expression: the first `||` alternative whose operands all exist; its last operand. */
export function evaluateExpression(
  expression: InputExpression,
  context: WorkingContext,
): JsonValue | undefined {
  for (const operands of expression.alternatives) {
    let value: JsonValue | undefined;
    for (const operand of operands) {
      value = context.valueOf(operand);
      if (value === undefined) break;
    }
    if (value !== undefined) return frozen(value);
  }
  return undefined;
}

/** A value safe to hand out: frozen values as they are, containers the runner owns as frozen copies. */
function frozen(value: JsonValue): JsonValue {
  if (typeof value !== "object" || value === null || Object.isFrozen(value)) return value;
  const copy = toJsonValue(value, { maxBytes: Number.MAX_SAFE_INTEGER });
  return copy.ok ? copy.value : value;
}

/** A template's text: strings inserted as-is, other values as compact JSON (SPEC §2 rule 2). */
function renderTemplate(parts: readonly (string | InputExpression)[], context: WorkingContext): string {
  let text = "";
  for (const part of parts) {
    if (typeof part === "string") text += part;
    else {
      const value = evaluateExpression(part, context);
      text += typeof value === "string" ? value : JSON.stringify(value ?? null);
    }
  }
  return text;
}

/** A literal's text with escapes removed (`††x` → `†x`, `{††` → `{†`); strings without a dagger are as-is. */
function literal(text: string): string {
  // Only a leading `††` and `{††` are escapes (SPEC §2 rule 3); references are overwritten by `setAt`.
  if (!text.startsWith("††") && !text.includes("{††")) return text;
  const parsed = parseParameterString(text);
  return parsed.ok && parsed.value.type === "literal" ? parsed.value.value : text;
}

/** A mutable deep copy of plain JSON (values from the plan), literal escapes removed. */
function copyTree(value: JsonValue): JsonValue {
  if (typeof value === "string") return literal(value);
  if (value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) return value.map(copyTree);
  const copy: Record<string, JsonValue> = {};
  // for-in reads the shape's cached key list where Object.keys copies it; inherited keys are skipped.
  for (const key in value) {
    if (Object.hasOwn(value, key)) setOwn(copy, key, copyTree((value as JsonObject)[key] as JsonValue));
  }
  return copy;
}

/** Freezes a tree, stopping at values that are already frozen (resolved context values). */
function freezeTree(value: JsonValue): void {
  if (value === null || typeof value !== "object" || Object.isFrozen(value)) return;
  Object.freeze(value);
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) freezeTree(value[index] as JsonValue);
    return;
  }
  for (const key in value) if (Object.hasOwn(value, key)) freezeTree((value as JsonObject)[key] as JsonValue);
}

/** Sets `value` at `location` inside a mutable copy. */
function setAt(root: JsonValue, location: Path, value: JsonValue): void {
  let node = root as Record<string | number, JsonValue>;
  for (let i = 0; i < location.length - 1; i++) {
    const key = location[i] as string | number;
    if (!Object.hasOwn(node, key)) return;
    node = node[key] as Record<string, JsonValue>;
  }
  setOwn(node, location[location.length - 1] as string | number, value);
}

/**
 * Resolves a call's parameters at dispatch: whole-value references keep their JSON type, templates
 * become strings, fallbacks and gates follow SPEC §2. The result is frozen (values handed to tools are
 * immutable). Missing references resolve to `null` (readiness guarantees they exist).
 */
export function resolveParams(call: CompiledCall, context: WorkingContext): JsonObject {
  if (call.references.length === 0 && Object.keys(call.params).length === 0) return EMPTY;
  const root = copyTree(call.params) as JsonObject;
  const references = call.references;
  for (let index = 0; index < references.length; index++) {
    const reference = references[index] as ParamReference;
    const parsed = reference.value;
    const value =
      parsed.type === "reference"
        ? (evaluateExpression(parsed.expression, context) ?? null)
        : renderTemplate(parsed.parts, context);
    if (reference.location.length === 0) continue;
    setAt(root, reference.location, value);
  }
  freezeTree(root);
  return root;
}
