import { distance } from "fastest-levenshtein";

/**
 * Names among `candidates` close to `name` (edit distance ≤ 1 for names under 4 characters, else
 * ≤ max(2, length / 3); case differences count half), nearest first, ties alphabetical, at most `max`.
 */
export function nearestNames(name: string, candidates: Iterable<string>, max = 3): string[] {
  const scored: { candidate: string; score: number }[] = [];
  const lowerName = name.toLowerCase();
  const limit = name.length < 4 ? 1 : Math.max(2, Math.floor(name.length / 3));
  for (const candidate of candidates) {
    if (candidate === name) continue;
    const score = Math.min(distance(name, candidate), distance(lowerName, candidate.toLowerCase()) + 0.5);
    if (score <= limit) scored.push({ candidate, score });
  }
  scored.sort(
    (a, b) => a.score - b.score || (a.candidate < b.candidate ? -1 : a.candidate > b.candidate ? 1 : 0),
  );
  return scored.slice(0, Math.max(0, max)).map((entry) => entry.candidate);
}

/** The hint text `did you mean "x"?` for the nearest candidate, or `undefined` when none is close. */
export function didYouMean(name: string, candidates: Iterable<string>): string | undefined {
  const [nearest] = nearestNames(name, candidates, 1);
  return nearest === undefined ? undefined : `did you mean ${JSON.stringify(nearest)}?`;
}
