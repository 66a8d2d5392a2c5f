import { ANNOTATION_KEYWORDS } from "./annotation-keywords.js";
import { definitionOf, type ZodDefinition } from "./jsonless-kinds.js";

/** What zod's `override` hook is given for each schema it converted (zod 4.0 and later). */
interface OverrideContext {
  readonly zodSchema: unknown;
  readonly jsonSchema?: Record<string, unknown>;
}

/** The keywords that only annotate (2020-12 meta-data vocabulary): kept on a widened schema. */
const ANNOTATIONS: ReadonlySet<string> = new Set(ANNOTATION_KEYWORDS);

/** True for `z.preprocess(fn, inner)`: a pipe whose input side is a transform. */
function isPreprocess(definition: ZodDefinition): boolean {
  return definition.type === "pipe" && definitionOf(definition.in).type === "transform";
}

/**
 * True when zod's parse may accept a JSON value the converted schema refuses: `z.coerce.*` (converts the
 * value first: `"5"` is a number to `z.coerce.number()`), `z.preprocess(fn, …)` (zod converts `fn`'s
 * result, not the value) and `.catch(…)` (any value passes). zod converts each as its inner type.
 */
function isLenient(definition: ZodDefinition): boolean {
  return definition.coerce === true || definition.type === "catch" || isPreprocess(definition);
}

/** True when zod may accept the key left out: `.catch` (always), `z.preprocess` (its function may fill it). */
function mayBeLeftOut(schema: unknown): boolean {
  const definition = definitionOf(schema);
  return definition.type === "catch" || isPreprocess(definition);
}

/**
 * zod's `override` hook that makes a converted schema accept what zod's parse accepts, where the converter
 * wrote the inner type: a lenient schema (`isLenient`) becomes "anything" (`{}`, its annotations kept), and
 * an object no longer requires a key zod may fill (`mayBeLeftOut`). Validation and reference types then
 * refuse no value `run` would get from `schema.parse`; zod still checks the value when the call runs.
 */
export function widenLenientSchema(context: OverrideContext): void {
  const json = context.jsonSchema;
  if (json === undefined) return;
  const definition = definitionOf(context.zodSchema);
  if (isLenient(definition)) {
    for (const key of Object.keys(json)) if (!ANNOTATIONS.has(key)) delete json[key];
    return;
  }
  if (definition.type !== "object" || !Array.isArray(json.required)) return;
  const shape = (definition.shape ?? {}) as Readonly<Record<string, unknown>>;
  const required = json.required.filter((key) => !(Object.hasOwn(shape, key) && mayBeLeftOut(shape[key])));
  if (required.length === json.required.length) return;
  if (required.length === 0) delete json.required;
  else json.required = required;
}
