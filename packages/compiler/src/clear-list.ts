/**
 * Empties a reused scratch list, keeping its storage: `list.length = 0` drops the backing store, so the
 * next push allocates a new one (a 17-slot store for every call that reuses the list); `pop` keeps it.
 */
export function clearList(list: unknown[]): void {
  while (list.length > 0) list.pop();
}
