import type { OutputMethod } from "@obelisk/core";

/** The container each accumulating method needs (or leaves) at its target; `set` is not accumulating. */
const FAMILY: Readonly<Record<OutputMethod, "an array" | "an object" | undefined>> = {
  set: undefined,
  push: "an array",
  concat: "an array",
  merge: "an object",
  assign: "an object",
};

/** One accumulating co-writer of a path: its method and the types of its value (undefined: unknown). */
export interface CoWriter {
  readonly id: string | undefined;
  readonly method: OutputMethod;
  readonly value: Set<string> | undefined;
}

/** What an OUTPUT_CONFLICT of two co-writers says after "both write <path>", and its hint. */
export interface Clash {
  readonly reason: string;
  readonly hint: string;
}

const FAMILY_HINT =
  "co-writers of one path accumulate into one container: push and concat into an array, merge and assign into an object — give both the same kind of method, or write to different paths";
const MERGE_HINT =
  "merge co-writers each merge an object into the one at the path: give each an object value, or write to different paths";

const nameOf = (writer: CoWriter): string => (writer.id === undefined ? "the call" : `"${writer.id}"`);

/** True when a merge's value is certainly not an object (its types are known and none is). */
const neverObject = (writer: CoWriter): boolean =>
  writer.method === "merge" &&
  writer.value !== undefined &&
  writer.value.size > 0 &&
  !writer.value.has("object");

/** True unless a merge's value is known not to be an array (unknown types may be one). */
const mayBeArray = (writer: CoWriter): boolean =>
  writer.value === undefined || writer.value.size === 0 || writer.value.has("array");

/**
 * Why two accumulating co-writers of one path cannot both apply, whatever order they finish in (decision
 * 0114): one needs an array there and the other an object (push or concat against merge or assign — except a
 * first merge whose value may be an array: on a missing path it sets that array, and a push appends), or a
 * merge's value is never an object (it sets a missing path to that value, and then the other write fails;
 * after the other, it fails itself). Undefined when both may apply (unknown value types stay silent).
 */
export function coWriterClash(earlier: CoWriter, later: CoWriter): Clash | undefined {
  const needs = FAMILY[later.method];
  const leaves = FAMILY[earlier.method];
  if (needs === undefined || leaves === undefined) return undefined;
  // a merge sets a missing path to its value: one that may be an array leaves an array there for a push
  if (needs !== leaves && !(earlier.method === "merge" && needs === "an array" && mayBeArray(earlier)))
    return {
      reason: `${earlier.method} leaves ${leaves} there, and ${later.method} needs ${needs}`,
      hint: FAMILY_HINT,
    };
  const scalar = neverObject(earlier) ? earlier : neverObject(later) ? later : undefined;
  if (scalar === undefined) return undefined;
  const types = [...(scalar.value as Set<string>)].join(" or ");
  return {
    reason: `${nameOf(scalar)} merges a value typed ${types} (never an object), which only a missing path takes, so the other write fails`,
    hint: MERGE_HINT,
  };
}
