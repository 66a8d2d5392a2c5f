/** JSON Schema 2020-12's annotation keywords (meta-data vocabulary): they never make a value invalid. */
export const ANNOTATION_KEYWORDS = [
  "title",
  "description",
  "default",
  "examples",
  "deprecated",
  "readOnly",
  "writeOnly",
] as const;
