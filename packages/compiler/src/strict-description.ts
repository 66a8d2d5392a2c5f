import type { JsonValue } from "@obelisk/core";
import type { Mutable } from "./strict-build.js";

/** What a strict schema's description says besides the tool's own, by the schema's identity. */
const notes = new WeakMap<object, string>();

/** The note of an open object without named keys: strict mode can write it only as `{}`. */
const ONLY_EMPTY =
  'Only {} can be written here (strict mode needs an object\'s keys named): for a value with keys, give a reference to a stored value instead, such as "†state.name" or "†input.name".';

/** Says in `object`'s description that only `{}` can be written there, and that a reference can pass more. */
export function noteOnlyEmpty(object: Mutable): void {
  notes.set(object, ONLY_EMPTY);
  object.description = ONLY_EMPTY;
}

/** Gives a converted schema the tool's description of it, followed by the conversion's note if it has one. */
export function describeConverted(converted: Mutable, description: JsonValue | undefined): void {
  const note = notes.get(converted);
  const own = typeof description === "string" ? description.trim() : "";
  if (note === undefined || own === "") {
    if (typeof description === "string") converted.description = description;
    return;
  }
  converted.description = `${own}${/[.!?]$/.test(own) ? "" : "."} ${note}`;
}
