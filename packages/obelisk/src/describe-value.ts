/** What a refused argument is, for a USAGE message: "null", "undefined", "an empty string", "an array", "an object", "a number"… */
export function describeValue(value: unknown): string {
  if (value === null) return "null";
  if (value === undefined) return "undefined";
  if (value === "") return "an empty string";
  if (Array.isArray(value)) return "an array";
  return typeof value === "object" ? "an object" : `a ${typeof value}`;
}

/** A refused option value as a message shows it: a string quoted (its first 40 characters), else described. */
export const shownValue = (value: unknown): string =>
  typeof value === "string" && value !== "" ? JSON.stringify(value.slice(0, 40)) : describeValue(value);
