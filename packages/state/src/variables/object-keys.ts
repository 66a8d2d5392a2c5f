/** Below this many keys, an object's key list is computed for each page (`Object.keys` takes microseconds). */
const KEPT_FROM_KEYS = 1_024;

/** Key lists of frozen objects, held while their object lives (a WeakMap holds neither alive). */
const keyLists = new WeakMap<object, readonly string[]>();

/**
 * `Object.keys(value)`, computed once for a large frozen object: a frozen object's keys can never change,
 * so its list is kept while the object lives and later pages of it cost their own keys only (the stores'
 * snapshots are frozen; a changed value is a new object, whose list is computed afresh). An object that is
 * not frozen (a custom store's) is listed on every call. Do not change the answer.
 */
export function objectKeys(value: object): readonly string[] {
  const kept = keyLists.get(value);
  if (kept !== undefined) return kept;
  const keys = Object.keys(value);
  // isFrozen walks a large object's properties too: once, with the list it keeps
  if (keys.length >= KEPT_FROM_KEYS && Object.isFrozen(value)) keyLists.set(value, keys);
  return keys;
}
