import { distance } from "fastest-levenshtein";

/** True when `a` and `b` (equal length) differ only by one swap of two adjacent characters. */
function oneAdjacentSwap(a: string, b: string): boolean {
  let at = 0;
  while (at < a.length && a.charCodeAt(at) === b.charCodeAt(at)) at++;
  return (
    at + 1 < a.length &&
    a.charCodeAt(at) === b.charCodeAt(at + 1) &&
    a.charCodeAt(at + 1) === b.charCodeAt(at) &&
    a.slice(at + 2) === b.slice(at + 2)
  );
}

/** Edit distance where swapping two adjacent characters counts as one edit (`evn` → `env`). */
function editDistance(a: string, b: string): number {
  const edits = distance(a, b);
  return edits === 2 && a.length === b.length && oneAdjacentSwap(a, b) ? 1 : edits;
}

/**
 * The largest score a suggestion may have for a name of `length` characters: small relative to the
 * length, since no suggestion beats a wrong one (`_foo` is two edits from `_tool`, half the name).
 */
function scoreLimit(length: number): number {
  if (length < 4) return 1;
  if (length < 6) return 1.5;
  return Math.max(2, Math.floor(length / 3));
}

/**
 * Character pairs (the name's length × a candidate's, summed over the candidates compared) one
 * `nearestNames` compares before it stops looking: a hint is a courtesy, and 200 call ids of 1,000
 * characters cost 0.3 s per unresolved reference. Names and candidates of everyday lengths (a 20-character
 * name among 5,000 candidates of 20) are all compared.
 */
export const NEAREST_NAMES_WORK = 4_000_000;

/**
 * Names among `candidates` close to `name` (edit distance, an adjacent swap counting as one edit, ≤ 1
 * for names under 4 characters, ≤ 1.5 under 6, else ≤ max(2, length / 3); case differences count
 * half), nearest first, ties alphabetical, at most `max`. Candidates whose length alone puts them out of
 * reach cost one comparison; the others are compared, in the order given, within
 * {@link NEAREST_NAMES_WORK}.
 */
export function nearestNames(name: string, candidates: Iterable<string>, max = 3): string[] {
  const scored: { candidate: string; score: number }[] = [];
  const lowerName = name.toLowerCase();
  const limit = scoreLimit(name.length);
  let work = 0;
  for (const candidate of candidates) {
    if (candidate === name || Math.abs(candidate.length - name.length) > limit) continue;
    work += name.length * candidate.length;
    if (work > NEAREST_NAMES_WORK) break;
    const score = Math.min(
      editDistance(name, candidate),
      editDistance(lowerName, candidate.toLowerCase()) + 0.5,
    );
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
