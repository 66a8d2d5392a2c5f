import { type JsonObject, setOwn } from "@obelisk/core";

/**
 * An owned shallow copy of a frozen state root, made by a loop over its keys: V8 spreads a large
 * (dictionary-mode) object at ~2,700 instructions a key, the loop costs ~1,200 (a root of 3,000 variables:
 * 8.0 → 3.5 M instructions; docs/performance/state.md, stop 34). A `__proto__` key stays own data.
 */
export function copyRoot(root: JsonObject): Record<string, JsonObject[string]> {
  const copy: Record<string, JsonObject[string]> = {};
  const keys = Object.keys(root);
  for (let index = 0; index < keys.length; index++) {
    const key = keys[index] as string;
    setOwn(copy, key, root[key] as JsonObject[string]);
  }
  return copy;
}
