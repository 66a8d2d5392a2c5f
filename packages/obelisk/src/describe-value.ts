/** What a refused argument is, for a USAGE message: "null", "an empty string", "an array", "a number"… */
export function describeValue(value: unknown): string {
  if (value === null) return "null";
  if (value === "") return "an empty string";
  return Array.isArray(value) ? "an array" : `a ${typeof value}`;
}
