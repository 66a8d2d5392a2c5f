/** Escapes one reference token for a JSON Pointer (RFC 6901: `~` → `~0`, `/` → `~1`). */
function escapeToken(segment: string | number): string {
  const text = String(segment);
  if (!text.includes("~") && !text.includes("/")) return text;
  return text.replaceAll("~", "~0").replaceAll("/", "~1");
}

/** Appends one segment (object key or array index) to a JSON Pointer, escaping it (RFC 6901). */
export function appendPointer(base: string, segment: string | number): string {
  return `${base}/${escapeToken(segment)}`;
}

/** Builds a JSON Pointer from path segments (`["plan", 0, "a/b"]` → `/plan/0/a~1b`). */
export function pointerFromPath(segments: readonly (string | number)[]): string {
  let pointer = "";
  for (const segment of segments) pointer = appendPointer(pointer, segment);
  return pointer;
}

/**
 * Splits a JSON Pointer into unescaped reference tokens (`""` → `[]`).
 * A pointer that does not start with `/` is read as if it did (lenient).
 */
export function parsePointer(pointer: string): string[] {
  if (pointer === "") return [];
  const body = pointer.startsWith("/") ? pointer.slice(1) : pointer;
  return body.split("/").map((token) => token.replaceAll("~1", "/").replaceAll("~0", "~"));
}

/** The result of resolving a JSON Pointer. */
export type PointerResolution = { found: true; value: unknown } | { found: false };

/** Resolves a JSON Pointer in a document, following own properties only (never prototypes). */
export function resolvePointer(document: unknown, pointer: string): PointerResolution {
  let current: unknown = document;
  for (const token of parsePointer(pointer)) {
    if (Array.isArray(current)) {
      if (!/^(0|[1-9][0-9]*)$/.test(token)) return { found: false };
      const index = Number(token);
      if (index >= current.length) return { found: false };
      current = current[index];
    } else if (typeof current === "object" && current !== null) {
      if (!Object.hasOwn(current, token)) return { found: false };
      current = (current as Record<string, unknown>)[token];
    } else {
      return { found: false };
    }
  }
  return { found: true, value: current };
}
