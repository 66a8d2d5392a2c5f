import type { CoreEffect } from "./decision-types.js";

/** Up to this many dispatches are ordered by insertion (no comparator closure, no index list). */
const FEW = 16;

/**
 * Puts the dispatches among `effects[from..]` in `rank` order, highest first and stable (equal ranks keep
 * their order); every other effect keeps its place. The calls one event makes ready are then started
 * critical path first even when no limit makes them queue: with unbounded concurrency they are still
 * started one after another in one synchronous burst, and a call on the critical path waited for its
 * siblings' parameter resolution and tool start (~15–25 µs each after a timer wake-up).
 */
export function orderDispatches(effects: CoreEffect[], from: number, rank: (index: number) => number): void {
  let count = 0;
  for (let at = from; at < effects.length; at++) if ((effects[at] as CoreEffect).type === "dispatch") count++;
  if (count < 2) return;
  const places: number[] = new Array(count);
  const ranks: number[] = new Array(count);
  let sorted = true;
  let next = 0;
  for (let at = from; at < effects.length; at++) {
    const effect = effects[at] as CoreEffect;
    if (effect.type !== "dispatch") continue;
    const value = rank(effect.index);
    if (next > 0 && value > (ranks[next - 1] as number)) sorted = false;
    places[next] = at;
    ranks[next] = value;
    next++;
  }
  if (sorted) return;
  const chosen: CoreEffect[] = new Array(count);
  if (count <= FEW) {
    // insertion sort, stable: the common case is a handful of calls made ready by one completion
    for (let at = 0; at < count; at++) {
      const effect = effects[places[at] as number] as CoreEffect;
      const value = ranks[at] as number;
      let to = at;
      while (to > 0 && (ranks[to - 1] as number) < value) {
        chosen[to] = chosen[to - 1] as CoreEffect;
        ranks[to] = ranks[to - 1] as number;
        to--;
      }
      chosen[to] = effect;
      ranks[to] = value;
    }
  } else {
    // equal ranks keep the order they became ready in (Array.prototype.sort is stable)
    const order = places.map((_, at) => at);
    order.sort((a, b) => (ranks[b] as number) - (ranks[a] as number) || a - b);
    for (let at = 0; at < count; at++)
      chosen[at] = effects[places[order[at] as number] as number] as CoreEffect;
  }
  for (let at = 0; at < count; at++) effects[places[at] as number] = chosen[at] as CoreEffect;
}
