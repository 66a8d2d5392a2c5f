import type { Limits } from "./limits.js";
import type { SourceMap } from "./source-map.js";
import { createSourceMap } from "./source-map.js";

/** A zero that may have been read from a literal too small for a double (`1e-400`, `0.000…001`). */
const MAYBE_UNDERFLOW = /[eE]-|\.0{300}/;

/** `"` then blanks then `:` — at least one per object member in JSON text (more when strings hold `":`). */
function membersAtMost(text: string): number {
  let count = 0;
  for (let at = text.indexOf(":"); at >= 0; at = text.indexOf(":", at + 1)) {
    let before = at - 1;
    let code = text.charCodeAt(before);
    while (code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d) code = text.charCodeAt(--before);
    if (code === 0x22) count++;
  }
  return count;
}

/**
 * The value of JSON `text` read by `JSON.parse`, when nothing in it needs the checks that only a syntax
 * tree can make: no key repeated in an object (the text has no more members than the value has keys), no
 * number beyond ±2^53 or out of range, no `-0` and no zero that may have underflowed, no string or key
 * over `maxStringLength`. Undefined otherwise, and for text that is not JSON: the caller then reads the
 * tree (its diagnostics say what and where). Depth is the caller's (checked on the text first).
 * `JSON.parse` defines every key as an own data property (`__proto__` included), as the tree reader does.
 */
export function quickJsonValue(text: string, limits: Limits): { readonly value: unknown } | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  const maxLength = limits.maxStringLength;
  let keys = 0;
  let zero = false;
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const item = stack.pop();
    if (typeof item === "number") {
      if (!Number.isFinite(item) || Math.abs(item) > Number.MAX_SAFE_INTEGER || Object.is(item, -0))
        return undefined;
      if (item === 0) zero = true;
    } else if (typeof item === "string") {
      if (item.length > maxLength) return undefined;
    } else if (Array.isArray(item)) {
      for (let index = 0; index < item.length; index++) stack.push(item[index]);
    } else if (typeof item === "object" && item !== null) {
      const record = item as Record<string, unknown>;
      for (const key of Object.keys(record)) {
        if (key.length > maxLength) return undefined;
        keys++;
        stack.push(record[key]);
      }
    }
  }
  if (zero && MAYBE_UNDERFLOW.test(text)) return undefined;
  return membersAtMost(text) > keys ? undefined : { value };
}

/**
 * A source map over `text` whose tree is parsed on the first `positionOf` (offsets need no tree): a text
 * read by `quickJsonValue` pays for the tree only when a diagnostic is located.
 */
export function lazySourceMap(
  text: string,
  parseTree: () => Parameters<typeof createSourceMap>[1],
): SourceMap {
  const offsets = createSourceMap(text, undefined);
  let located: SourceMap | undefined;
  return {
    text,
    positionOfOffset: (offset) => offsets.positionOfOffset(offset),
    positionOf(pointer) {
      located ??= createSourceMap(text, parseTree());
      return located.positionOf(pointer);
    },
  };
}
