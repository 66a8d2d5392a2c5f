/** One group being read: the alternatives closed so far, the sequence being read and its last atom's size. */
interface Frame {
  alternatives: number;
  closed: number;
  sequence: number;
  last: number;
  capture: boolean;
}

/** The index after the first `char` from `from` on (the pattern's end when there is none). */
function after(pattern: string, char: string, from: number): number {
  const at = pattern.indexOf(char, from);
  return at === -1 ? pattern.length : at + 1;
}

/** The index after the escape that starts at `index` (a backslash), in a valid `u`-flag pattern. */
function escapeEnd(pattern: string, index: number): number {
  const next = pattern[index + 1];
  if ((next === "u" || next === "p" || next === "P") && pattern[index + 2] === "{")
    return after(pattern, "}", index + 3);
  if (next === "k" && pattern[index + 2] === "<") return after(pattern, ">", index + 3);
  if (next === "u") return index + 6;
  if (next === "x") return index + 4;
  if (next === "c") return index + 3;
  return index + 2;
}

/** The index after the character class that starts at `index` (a `[`). */
function classEnd(pattern: string, index: number): number {
  let at = index + 1;
  while (at < pattern.length && pattern[at] !== "]")
    at = pattern[at] === "\\" ? escapeEnd(pattern, at) : at + 1;
  return at + 1;
}

/** RE2's size of `atom` repeated `{min,max}` (`max` -1: unbounded), as its parser counts it (`calcSize`). */
function repeated(atom: number, min: number, max: number): number {
  if (max === -1) return min === 0 ? 2 + atom : 1 + min * atom;
  return max * atom + (max - min);
}

/** The quantifier at `index` as `[min, max, end]`, or undefined when there is none. */
function quantifier(pattern: string, index: number): [number, number, number] | undefined {
  const char = pattern[index];
  let found: [number, number, number] | undefined;
  if (char === "*") found = [0, -1, index + 1];
  else if (char === "+") found = [1, -1, index + 1];
  else if (char === "?") found = [0, 1, index + 1];
  else if (char === "{") {
    const match = /^\{(\d+)(,(\d*))?\}/.exec(pattern.slice(index, index + 24));
    if (match === null) return undefined;
    const min = Number(match[1]);
    const max = match[2] === undefined ? min : match[3] === "" ? -1 : Number(match[3]);
    found = [min, max, index + match[0].length];
  }
  if (found !== undefined && pattern[found[2]] === "?") found[2]++; // lazy: the same program size
  return found;
}

/**
 * An estimate of the instructions RE2 compiles `pattern` (an ECMA-262 `u`-flag pattern; any string ends) to,
 * in one linear scan: each atom (a character, an escape, a class) counts 1, a group the sum of its alternatives,
 * and a counted repeat its atom's size times its upper bound (`a{1000}` is 1,000 instructions: RE2
 * expands it). It is the size RE2's parser checks (`calcSize`, at most 1,398,101) — a pattern far under
 * that limit can still take seconds and hundreds of megabytes to compile (decision 0106).
 */
export function patternProgramSize(pattern: string): number {
  const stack: Frame[] = [];
  let frame: Frame = { alternatives: 0, closed: 0, sequence: 0, last: 0, capture: false };
  const atom = (size: number): void => {
    frame.sequence += size;
    frame.last = size;
  };
  let index = 0;
  while (index < pattern.length) {
    const char = pattern[index] as string;
    const quantified = quantifier(pattern, index);
    if (quantified !== undefined) {
      const [min, max, end] = quantified;
      const size = repeated(frame.last, min, max);
      frame.sequence += size - frame.last;
      frame.last = size;
      index = end;
      continue;
    }
    if (char === "(") {
      stack.push(frame);
      frame = { alternatives: 0, closed: 0, sequence: 0, last: 0, capture: pattern[index + 1] !== "?" };
      index = groupStart(pattern, index, frame);
      continue;
    }
    if (char === "|") {
      frame.closed += frame.sequence;
      frame.alternatives++;
      frame.sequence = 0;
      frame.last = 0;
      index++;
      continue;
    }
    if (char === ")") {
      const inner = frame;
      frame = stack.pop() ?? inner;
      atom(Math.max(1, closedSize(inner)));
      index++;
      continue;
    }
    if (char === "\\") index = escapeEnd(pattern, index);
    else if (char === "[") index = classEnd(pattern, index);
    else index++;
    atom(1);
  }
  let size = closedSize(frame);
  while (stack.length > 0) size += closedSize(stack.pop() as Frame);
  return size;
}

/** The index after the opening of the group at `index` (`(`, `(?:`, `(?=`, `(?<=`, `(?<name>`); a named group captures. */
function groupStart(pattern: string, index: number, frame: Frame): number {
  if (pattern[index + 1] !== "?") return index + 1;
  if (pattern[index + 2] !== "<") return index + 3;
  if (pattern[index + 3] === "=" || pattern[index + 3] === "!") return index + 4;
  frame.capture = true;
  return after(pattern, ">", index);
}

/** The size of a group whose last alternative is `frame.sequence`. */
function closedSize(frame: Frame): number {
  const size = frame.closed + frame.sequence + frame.alternatives;
  return frame.capture ? size + 2 : size;
}
