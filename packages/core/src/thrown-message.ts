/** A thrown value's message: an Error's message, else the value as text; never throws (a hostile value). */
export function thrownMessage(value: unknown): string {
  try {
    return value instanceof Error ? String(value.message) : String(value);
  } catch {
    return "a value that cannot be shown as text";
  }
}
