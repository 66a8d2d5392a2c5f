import type { JsonObject } from "@obelisk/core";
import { didYouMean, ObeliskError } from "@obelisk/core";
import { isPlainObject } from "./to-json-schema.js";

/**
 * `approvalParams`: distinct parameter names (not meta-properties) the input schema declares when it
 * declares any (a name it does not have could never be given).
 */
export function checkApprovalParamNames(
  value: unknown,
  inputSchema: JsonObject,
  what: string,
): readonly string[] {
  if (value === undefined) return NO_NAMES;
  if (
    !Array.isArray(value) ||
    !value.every((name) => typeof name === "string" && name !== "" && !name.startsWith("_"))
  )
    throw new ObeliskError(
      "USAGE",
      `${what}: approvalParams must be an array of parameter names (not starting with _)`,
      { hint: 'e.g. approvalParams: ["amount"] for an input with an "amount" parameter' },
    );
  const names = value as string[];
  if (new Set(names).size !== names.length)
    throw new ObeliskError("USAGE", `${what}: approvalParams names a parameter twice`, {
      hint: "name each parameter once",
    });
  const declared = isPlainObject(inputSchema.properties) ? Object.keys(inputSchema.properties) : undefined;
  const undeclared = declared === undefined ? undefined : names.find((name) => !declared.includes(name));
  if (undeclared !== undefined)
    throw new ObeliskError(
      "USAGE",
      `${what}: approvalParams names "${undeclared}", which its input schema does not declare`,
      {
        hint: didYouMean(undeclared, declared ?? []) ?? "declare the parameter in the input schema",
      },
    );
  return Object.freeze([...names]);
}

const NO_NAMES: readonly string[] = Object.freeze([]);

/** A tool's optional number (`what` names it); `positive`: above 0, otherwise any finite number. */
export function optionalNumber(value: unknown, what: string, positive = true): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== "number" || !Number.isFinite(value) || (positive && value <= 0)) {
    throw new ObeliskError("USAGE", `${what} must be a positive number`, {
      hint: `a finite number above 0, e.g. ${what.slice(what.lastIndexOf(" ") + 1)}: 5000 — or leave it out`,
    });
  }
  return value;
}

/** A tool's `reuseForMs`: ms from 0 (never reused) to Infinity (the default: always). */
export function checkReuseForMs(value: unknown, what: string): number {
  if (value === undefined) return Number.POSITIVE_INFINITY;
  if (typeof value !== "number" || Number.isNaN(value) || value < 0)
    throw new ObeliskError("USAGE", `${what}: reuseForMs must be a number of ms from 0 (Infinity: always)`, {
      hint: "how long a completed call of this tool satisfies a later identical call; fresh: true never",
    });
  return value;
}

/** A tool's `outcomes`: distinct names of the alternatives its run may choose. */
export function checkOutcomes(value: unknown, what: string): readonly string[] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || !value.every((v) => typeof v === "string")) {
    throw new ObeliskError("USAGE", `${what}: outcomes must be an array of strings`, {
      hint: 'name the alternatives its run may choose with branch(name): e.g. outcomes: ["found", "notFound"]',
    });
  }
  // `branch("a")` and `_outputPath` alternatives are matched by name: a repeated one could never be told apart
  const repeated = value.find((name, at) => value.indexOf(name) !== at);
  if (repeated !== undefined)
    throw new ObeliskError("USAGE", `${what}: outcomes names ${JSON.stringify(repeated)} twice`, {
      hint: "give each alternative its own name",
    });
  return value as string[];
}
