import { didYouMean, type JsonObject, type JsonValue, ObeliskError, toJsonValue } from "@obelisk/core";
import { describeValue } from "./describe-value.js";

/** A run's input after unwrapping an Input message. */
export interface NormalizedInput {
  /** The input value (`{}` when none was given). */
  readonly input: JsonObject;
  /** The Input message's schema, if any (`false` becomes `{ not: {} }`: no input satisfies it). */
  readonly schema?: JsonObject;
  /** True when the input came as an Input message (pointers then start at `/input`). */
  readonly message: boolean;
  /** What was given, as a frozen JSON copy (stored with the run, for `resume`); `{}` when nothing was. */
  readonly given: JsonValue;
}

const NO_INPUT: NormalizedInput = Object.freeze({
  input: Object.freeze({}),
  message: false,
  given: Object.freeze({}),
});
/** The schema `false` as an object: nothing satisfies it. */
const NOTHING: JsonObject = Object.freeze({ not: Object.freeze({}) });

const isObject = (value: unknown): value is JsonObject =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** A message cut to a readable length (a pointer 1,000 levels deep is not). */
const shortened = (message: string): string =>
  message.length <= 200 ? message : `${message.slice(0, 199)}…`;

/**
 * A JSON copy of `value` (a `Date`, a function, a `Map`, `NaN`… throw USAGE), made within `maxBytes` (the
 * engine's `maxValueBytes`): a larger value throws `tooLarge()`'s error as soon as the copy passes the
 * limit, so an array claiming a billion items is not copied (or allocated) to be refused afterwards.
 */
export function requireJson(
  value: unknown,
  what: string,
  maxBytes: number,
  tooLarge: () => ObeliskError,
): JsonValue {
  const copy = toJsonValue(value, { maxBytes });
  if (!copy.ok && copy.code === "OUTPUT_TOO_LARGE") throw tooLarge();
  if (!copy.ok)
    throw new ObeliskError("USAGE", refusal(what, copy), {
      hint: "give a JSON value: a string, a finite number, a boolean, null, or arrays and plain objects of them (a Date as its ISO string)",
    });
  // the checked copy: what is stored is what was checked (a getter cannot answer differently later)
  return copy.value;
}

/** Why a copy was refused: a size over the limit names the limit; anything else is "not JSON". */
const refusal = (what: string, copy: { code: string; message: string }): string =>
  copy.code === "OUTPUT_TOO_LARGE"
    ? `the ${what} is ${copy.message} (limits.maxValueBytes)`
    : `the ${what} is not JSON: ${shortened(copy.message)}`;

const usage = (message: string): ObeliskError =>
  new ObeliskError("USAGE", message, {
    hint: 'give a plain object, or an Input message { "type": "input", "input": { … }, "schema"?: { … } }',
  });

/**
 * Accepts a plain object or an Input message `{ "type": "input", "input": { … }, "schema"?: … }` (SPEC §5);
 * anything else (a number, string, array, boolean, null) throws USAGE. The message's `input` must be a plain
 * object too (missing or null: `{}`), and its `schema` a JSON Schema: an object, `true` (no check) or `false`
 * (every input refused); any other schema throws USAGE. The input is stored with the run, so it is held to
 * the engine's `maxValueBytes` (default: core's) like every stored value.
 */
export function normalizeInput(raw: unknown, maxBytes?: number): NormalizedInput {
  if (raw === undefined) return NO_INPUT;
  if (!isObject(raw)) throw usage(`the input must be a plain object, not ${describeValue(raw)}`);
  // A frozen JSON copy: what the plan reads is what is stored with the run, and the caller's objects are
  // neither frozen nor read again later (NaN, a Date, a BigInt… are refused here, before any lock).
  const copy = toJsonValue(raw, { remember: true, ...(maxBytes === undefined ? {} : { maxBytes }) });
  if (!copy.ok && copy.code === "OUTPUT_TOO_LARGE")
    throw new ObeliskError("USAGE", refusal("input", copy), {
      hint: "pass large data by reference instead: store it with engine.set (or a tool) and read it with †state",
    });
  if (!copy.ok) throw usage(refusal("input", copy));
  const given = copy.value as JsonObject;
  if (given.type !== "input" || !Object.hasOwn(given, "input"))
    return { input: given, message: false, given };
  const input = given.input ?? {};
  if (!isObject(input))
    throw usage(`the Input message's input must be a plain object, not ${describeValue(input)}`);
  const schema = given.schema;
  if (schema === undefined || schema === true) return { input, message: true, given };
  if (schema === false) return { input, message: true, schema: NOTHING, given };
  if (!isObject(schema))
    throw usage(
      `the Input message's schema must be a JSON Schema (an object, true or false), not ${describeValue(schema)}`,
    );
  return { input, message: true, schema, given };
}

/** Values of host-declared kinds for one run or validation (`RunOptions.context`). */
export type HostContext = Readonly<Record<string, JsonValue>>;

/**
 * The run's `context` as a frozen JSON copy, like the input: the plan reads what was given at the start,
 * and the caller's objects are neither frozen nor read again later. Not a plain object, a key that is not
 * one of `hostKinds` (the engine's `kinds`: a misspelt kind left the plan's reads unresolved with no word
 * of why), or not JSON (NaN, a Date, a function…), or larger than `maxBytes` (the engine's
 * `maxValueBytes`): USAGE, before any lock.
 */
export function normalizeContext(
  raw: unknown,
  hostKinds: ReadonlySet<string>,
  maxBytes?: number,
): HostContext | undefined {
  if (raw === undefined) return undefined;
  const hint = "give a plain object of JSON values, one per host-declared kind: { <kind>: <value> }";
  if (!isObject(raw))
    throw new ObeliskError("USAGE", `the context must be a plain object, not ${describeValue(raw)}`, {
      hint,
    });
  for (const kind of Object.keys(raw)) {
    if (hostKinds.has(kind)) continue;
    throw new ObeliskError(
      "USAGE",
      `the context names ${JSON.stringify(kind)}, which is not a kind of the engine`,
      {
        hint:
          didYouMean(kind, hostKinds) ??
          (hostKinds.size === 0
            ? "declare the kind with createEngine({ kinds: [{ kind, description }] })"
            : `the engine's host kinds are ${[...hostKinds].join(", ")}`),
      },
    );
  }
  const copy = toJsonValue(raw, { remember: true, ...(maxBytes === undefined ? {} : { maxBytes }) });
  if (!copy.ok) throw new ObeliskError("USAGE", refusal("context", copy), { hint });
  return copy.value as HostContext;
}
