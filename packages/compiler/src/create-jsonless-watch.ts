import { ObeliskError } from "@obelisk/core";
import type { JsonlessUses } from "./find-jsonless-uses.js";
import { definitionOf, JSONLESS, type JsonlessKind, jsonlessKind } from "./jsonless-kinds.js";

/** Which side of a tool a schema describes: what a plan gives it, or what it returns. */
export type SchemaSide = "input" | "output";

/** What zod's `override` hook is given for each schema it converted (zod 4.0 and later). */
interface OverrideContext {
  readonly zodSchema: unknown;
  readonly jsonSchema?: Record<string, unknown>;
  readonly path?: readonly (string | number)[];
}

/**
 * Makes a converted jsonless type say the truth: nothing satisfies it (`{ not: {} }`, its description
 * kept), where the converter wrote `{}` ("anything").
 */
function refuseEverything(json: Record<string, unknown>): void {
  for (const key of Object.keys(json)) if (key !== "description") delete json[key];
  json.not = {};
}

/**
 * The field a JSON Schema path (`["properties", "list", "items", "properties", "at"]`) describes, as a
 * person writes it (`list[].at`); union members and `$defs` names are skipped.
 */
export function fieldPath(path: readonly (string | number)[]): string {
  let text = "";
  for (let index = 0; index < path.length; index++) {
    const segment = path[index];
    if (segment === "properties") text += `${text === "" ? "" : "."}${String(path[++index])}`;
    else if (segment === "items") text += "[]";
    else if (segment === "prefixItems") text += `[${String(path[++index])}]`;
    else if (segment === "additionalProperties") text += text === "" ? "*" : ".*";
    else if (segment === "propertyNames") text += " (its keys)";
    else if (segment === "anyOf" || segment === "oneOf" || segment === "allOf" || segment === "$defs")
      index++;
  }
  return text;
}

/** A conversion's watch for jsonless zod types: its `override` hook, then `refuse` after the conversion. */
export interface JsonlessWatch {
  /** zod's `override` option: sees every schema converted. */
  readonly override: (context: OverrideContext) => void;
  /** Throws USAGE naming every jsonless field met, with a hint per kind; nothing when there is none. */
  refuse(what: string, side: SchemaSide): void;
}

/**
 * Watches a zod → JSON Schema conversion for zod types no JSON value satisfies (`z.date()`, `z.bigint()`,
 * `z.map()`, …). A tool's arguments come from a JSON plan and its result is stored as JSON.
 * - Where a value must have such a type (`uses.required`), the tool could never run: `refuse` throws.
 * - Where it is one alternative (a union member, `.optional()`, `.nullable()`, `.default()`), the tool is
 *   accepted and the JSON Schema says nothing satisfies that member (`{ not: {} }`), so the plan schema and
 *   validation take only the other alternatives (leave the key out, `null`, the union's other members).
 * - Under `.catch` or `z.preprocess` (`uses.free`) any value passes: the schema stays "anything".
 * `coerce` versions take JSON values and are not jsonless.
 */
export function createJsonlessWatch(uses: JsonlessUses): JsonlessWatch {
  const found: { path: readonly (string | number)[]; kind: string; schema: unknown }[] = [];
  return {
    override(context) {
      const kind = jsonlessKind(definitionOf(context.zodSchema));
      if (kind === undefined) return;
      const path = Array.isArray(context.path) ? context.path : [];
      found.push({ path, kind, schema: context.zodSchema });
      const json = context.jsonSchema;
      if (json !== undefined && uses.constrained.has(context.zodSchema) && !uses.free.has(context.zodSchema))
        refuseEverything(json);
    },
    refuse(what, side) {
      const offenders = found.filter(({ schema }) => uses.required.has(schema));
      if (offenders.length === 0) return;
      // zod calls the hook inner schemas first: plan order reads better.
      offenders.reverse();
      const fields = offenders.map(({ path, kind }) => {
        const field = fieldPath(path);
        const written = (JSONLESS[kind] as JsonlessKind).written;
        return field === "" ? `the schema is ${written}` : `${field} is ${written}`;
      });
      const kinds = [...new Set(offenders.map(({ kind }) => kind))];
      const hints = kinds.map((kind) => {
        const entry = JSONLESS[kind] as JsonlessKind;
        return kinds.length === 1 ? entry[side] : `${entry.written}: ${entry[side]}`;
      });
      const why =
        side === "input"
          ? "a plan's values are JSON, so every call would fail PARAM_INVALID"
          : "a tool's result is stored as JSON, so every call would fail";
      const message = `${what}: ${fields.join(", ")}, which no JSON value can satisfy: ${why}`;
      throw new ObeliskError("USAGE", message, { hint: hints.join("; ") });
    },
  };
}
