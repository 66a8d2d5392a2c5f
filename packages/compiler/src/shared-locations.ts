import type { PathSegment } from "@obelisk/core";
import { pointerFromPath } from "@obelisk/core";

/** A location inside a call's parameters and its JSON Pointer there (e.g. `["inputs", 0]`, `/inputs/0`). */
export interface SharedLocation {
  readonly location: PathSegment[];
  readonly suffix: string;
}

/**
 * Locations shared by the references of one compile, by first segment: slot 0 for the parameter itself,
 * slot i + 1 for its item i (i < 64). Calls of a plan repeat them (`inputs[0]` in every call), a location
 * is never changed once made, and each one would otherwise cost a list and a pointer per reference, as
 * long as the compiled plan lives.
 */
export type SharedLocations = Map<string, (SharedLocation | undefined)[]>;

const MAX_SHARED_INDEX = 64;

/**
 * True for the locations a compile shares (a parameter, or an item of one below index 64): the same list
 * serves every reference there, so a cache keyed by the list holds one entry per location.
 */
export function isSharedLocation(location: readonly PathSegment[]): boolean {
  if (typeof location[0] !== "string") return false;
  if (location.length === 1) return true;
  const second = location[1];
  return location.length === 2 && typeof second === "number" && second < MAX_SHARED_INDEX;
}

/** The shared location of `location` (a parameter or an item of one) in `cache`, if it can be shared. */
export function sharedLocation(
  cache: SharedLocations | undefined,
  location: readonly PathSegment[],
): SharedLocation | undefined {
  if (cache === undefined || !isSharedLocation(location)) return undefined;
  const first = location[0] as string;
  const slot = location.length === 1 ? 0 : (location[1] as number) + 1;
  let slots = cache.get(first);
  if (slots === undefined) {
    slots = [];
    cache.set(first, slots);
  }
  let shared = slots[slot];
  if (shared === undefined) {
    shared = { location: location.slice(), suffix: pointerFromPath(location) };
    slots[slot] = shared;
  }
  return shared;
}
