import type {
  Diagnostic,
  JsonObject,
  JsonValue,
  OutputMethod,
  OutputPath,
  OutputTarget,
} from "@obelisk/core";
import { appendPointer, formatReference } from "@obelisk/core";
import type { CallBody } from "./analyze-call.js";
import { firstValueTypes } from "./check-output-method-value.js";
import { makeDiagnostic } from "./make-diagnostic.js";
import type { RegisteredTool } from "./registered-tool.js";
import {
  type DeclaredTypes,
  jsonTypeOf,
  scalarAncestor,
  schemaAtPath,
  schemaTypes,
  someCompatible,
  typeCompatible,
} from "./schema-types.js";
import { isPlainObject } from "./to-json-schema.js";

type Types = Set<string> | undefined;

/**
 * What the state schema says about one written path: the types it admits there and for its array items,
 * and the nearest ancestor it types as a scalar (nothing can be written below it), as a message.
 */
interface StateSlot {
  readonly types: Types;
  readonly itemTypes: Types;
  readonly belowScalar: string | undefined;
}

/** Per compile: the state schema's answer for each written `†state` path, by the target's canonical text. */
export type StateSlots = Map<string, StateSlot>;

/** What one compile needs to check writes against the thread's state schema. */
export interface StateSchemaCheck {
  readonly stateSchema: JsonObject;
  readonly declaredTypes: DeclaredTypes;
  readonly slots: StateSlots;
}

/** The call being checked (its tool, parsed output path, method and latent `_output`). */
interface StateWriteCall {
  readonly tool: RegisteredTool;
  readonly outputPath: OutputPath;
  readonly method: OutputMethod;
  /** True when the call gives `_output` (its value is `output`). */
  readonly hasOutput: boolean;
  readonly output: JsonValue | undefined;
}

const ARRAY: ReadonlySet<string> = new Set(["array"]);
const OBJECT: ReadonlySet<string> = new Set(["object"]);

/** Types of array items a schema describes (unknown with `prefixItems`: items differ by position). */
function itemTypesOf(schema: unknown, root: unknown, declaredTypes: DeclaredTypes): Types {
  if (!isPlainObject(schema) || schema.prefixItems !== undefined || !isPlainObject(schema.items))
    return undefined;
  return schemaTypes(schema.items, root, declaredTypes);
}

function slotOf(check: StateSchemaCheck, target: OutputTarget): StateSlot {
  const known = check.slots.get(target.text);
  if (known !== undefined) return known;
  const { stateSchema, declaredTypes } = check;
  const schema = schemaAtPath(stateSchema, target.path);
  const slot: StateSlot =
    schema === undefined
      ? { types: undefined, itemTypes: undefined, belowScalar: belowScalar(check, target) }
      : {
          types: schemaTypes(schema, stateSchema, declaredTypes),
          itemTypes: itemTypesOf(schema, stateSchema, declaredTypes),
          belowScalar: belowScalar(check, target),
        };
  check.slots.set(target.text, slot);
  return slot;
}

/** The message for a target below a value the state schema types as a scalar, or undefined. */
function belowScalar(check: StateSchemaCheck, target: OutputTarget): string | undefined {
  const scalar = scalarAncestor(check.stateSchema, target.path, check.declaredTypes);
  if (scalar === undefined) return undefined;
  const above = formatReference("state", target.path.slice(0, scalar.length));
  return `${target.text} is below ${above}, which the state schema types as ${list(scalar.types)}: nothing can be written below it`;
}

/** What one write puts at its path (`types`) and, for push/concat, as array items (`items`). */
interface WrittenShape {
  readonly types: ReadonlySet<string> | undefined;
  readonly items: ReadonlySet<string> | undefined;
  /** Concat of a literal array: every item is written, so one incompatible item is enough. */
  readonly everyItem: boolean;
}

/** Types of the value a call writes to its first alternative (see `firstValueTypes`). */
function valueTypes(call: StateWriteCall, declaredTypes: DeclaredTypes): Types {
  return firstValueTypes(call.tool, call.hasOutput, call.output, declaredTypes);
}

/** Item types of a concatenated value: each item's of a latent call's `_output` array, else unknown. */
function concatItems(call: StateWriteCall): WrittenShape["items"] {
  if (call.tool.latent && call.hasOutput) {
    if (!Array.isArray(call.output)) return undefined;
    return new Set(call.output.map(jsonTypeOf));
  }
  // An array from the tool may be empty, and then nothing is written: item types say nothing certain.
  return undefined;
}

/** What the method writes at the path, given the value's types (undefined where unknown). */
function writtenShape(call: StateWriteCall, value: Types): WrittenShape {
  switch (call.method) {
    case "set":
    case "merge":
      // merge sets the value on a missing path and merges objects otherwise: the result is one of its types
      return { types: value, items: undefined, everyItem: false };
    case "assign":
      // assign only succeeds with an object, and leaves an object
      return {
        types: value === undefined || value.has("object") ? OBJECT : undefined,
        items: undefined,
        everyItem: false,
      };
    case "push":
      return { types: ARRAY, items: value, everyItem: false };
    case "concat":
      if (value !== undefined && !value.has("array"))
        return { types: undefined, items: undefined, everyItem: false };
      return { types: ARRAY, items: concatItems(call), everyItem: true };
  }
}

function everyCompatible(types: ReadonlySet<string>, allowed: ReadonlySet<string>): boolean {
  for (const type of types) if (!typeCompatible(type, allowed)) return false;
  return true;
}

const list = (types: ReadonlySet<string>): string => [...types].join(" or ");

/** The mismatch of one target, as a message, or undefined. */
function mismatch(
  target: OutputTarget,
  slot: StateSlot,
  shape: WrittenShape,
  method: OutputMethod,
): string | undefined {
  const { types, items } = shape;
  if (
    slot.types !== undefined &&
    types !== undefined &&
    types.size > 0 &&
    !someCompatible(types, slot.types)
  ) {
    const what = method === "set" ? "the written value is" : `${method} leaves`;
    return `${what} ${list(types)} at ${target.text} but the state schema needs ${list(slot.types)}`;
  }
  if (slot.itemTypes === undefined || items === undefined || items.size === 0) return undefined;
  const fits = shape.everyItem
    ? everyCompatible(items, slot.itemTypes)
    : someCompatible(items, slot.itemTypes);
  if (fits) return undefined;
  return `${method} appends ${list(items)} to ${target.text} but the state schema needs items of ${list(slot.itemTypes)}`;
}

/**
 * REF_TYPE_MISMATCH at `/_outputPath` for each `†state` target whose write certainly breaks the state
 * schema (SPEC §5: checked statically where types are known). Conservative like the reference type check:
 * JSON `type`s only, and only when both the written value's and the state schema's types are known.
 */
export function checkStateSchemaWrites(
  check: StateSchemaCheck,
  raw: JsonObject,
  callPointer: string,
  tool: RegisteredTool,
  callId: string | undefined,
  { outputPath, meta }: CallBody,
  out: Diagnostic[],
): void {
  // An invalid `_outputMethod` (OUTPUT_METHOD_INVALID) says nothing about how the value is written.
  if (
    outputPath === undefined ||
    (raw._outputMethod !== undefined && raw._outputMethod !== meta.outputMethod)
  )
    return;
  const call: StateWriteCall = {
    tool,
    outputPath,
    method: meta.outputMethod,
    hasOutput: meta.hasOutput,
    output: meta.output,
  };
  const alternatives = outputPath.alternatives;
  let first: WrittenShape | undefined;
  let other: WrittenShape | undefined;
  for (let alternative = 0; alternative < alternatives.length; alternative++) {
    for (const target of alternatives[alternative] as readonly OutputTarget[]) {
      if (target.kind !== "state") continue;
      const slot = slotOf(check, target);
      // Whatever the value and the method: writing through a scalar fails, creating a container breaks the schema.
      if (slot.belowScalar !== undefined) {
        out.push(
          makeDiagnostic("REF_TYPE_MISMATCH", slot.belowScalar, pointerOf(raw, callPointer), {
            callId,
            hint: SCALAR_HINT,
          }),
        );
        continue;
      }
      if (slot.types === undefined && slot.itemTypes === undefined) continue;
      // Only the first alternative's value is known (see `valueTypes`); each shape is made once per call.
      if (alternative === 0) first ??= writtenShape(call, valueTypes(call, check.declaredTypes));
      else other ??= writtenShape(call, undefined);
      const shape = (alternative === 0 ? first : other) as WrittenShape;
      const message = mismatch(target, slot, shape, call.method);
      if (message === undefined) continue;
      out.push(
        makeDiagnostic("REF_TYPE_MISMATCH", message, pointerOf(raw, callPointer), {
          callId,
          hint: HINT,
        }),
      );
    }
  }
}

/** `/_outputPath` of the call (the call itself if its path was not written in it, e.g. a tool's default). */
function pointerOf(raw: JsonObject, callPointer: string): string {
  return raw._outputPath === undefined ? callPointer : appendPointer(callPointer, "_outputPath");
}

const HINT = "write to a path whose state-schema type fits the value, or use a tool whose output fits";
const SCALAR_HINT = "write to the scalar itself or to a path the state schema lets hold objects or arrays";
