/** `T` without the fields given as `undefined`: what a caller passing `{ field: undefined }` means by it. */
export type DefinedFields<T> = { -readonly [Field in keyof T]?: Exclude<T[Field], undefined> };

/**
 * The own fields of `given` whose value is not `undefined` (none for `undefined`): spread over defaults, a
 * field given as `undefined` keeps its default, as one left out does (`exactOptionalPropertyTypes` callers
 * pass `{ maxCallOutputs: maybe }`), where a plain spread replaced the default with `undefined`.
 */
export function definedFields<T extends object>(given: T | undefined): DefinedFields<T> {
  const fields: Record<string, unknown> = {};
  if (given === undefined) return fields as DefinedFields<T>;
  for (const [name, value] of Object.entries(given)) if (value !== undefined) fields[name] = value;
  return fields as DefinedFields<T>;
}
