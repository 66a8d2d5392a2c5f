import { didYouMean } from "./did-you-mean.js";
import { formatSegment } from "./format-path.js";
import type { KindTable } from "./kinds.js";
import type { Reference } from "./language-ast.js";
import { bracketNameHint, describeCharAt, type IssueResult, issueAt } from "./language-issue.js";
import { CHAR, isDigitCode, isNameCode, isNameStartCode, isSpaceCode } from "./name-grammar.js";
import { FORBIDDEN_SEGMENTS, type PathSegment } from "./path.js";
import { sigilLookalikeLength } from "./sigil-lookalike.js";

/** The hint of REF_FORBIDDEN_SEGMENT: what the segment would reach, and what to do instead. */
const FORBIDDEN_SEGMENT_HINT =
  "__proto__, prototype and constructor would reach JavaScript's object machinery, so no path may name them: use another key (e.g. proto)";

/** Options of one reference scan. */
export interface ReferenceScanOptions {
  /** Known kinds; an unknown kind is `REF_KIND_UNKNOWN`. */
  readonly kinds: KindTable;
  /** Maximum number of path segments (`PLAN_LIMIT` beyond). */
  readonly maxPathDepth: number;
  /** Output-path mode: a negative index is a syntax error. */
  readonly forbidNegativeIndex?: boolean;
}

/** A reference scanned from `start` up to (not including) `end`. */
export type ReferenceScan =
  | { readonly ok: true; readonly reference: Reference; readonly end: number }
  | IssueResult;

const MAX_INDEX_DIGITS = 15;

/** The kind name in `text[start, end)`: a built-in name as a constant (no new string, a cached hash for the kind table), any other as a slice. */
function kindNameAt(text: string, start: number, end: number): string {
  if (end - start === 5) {
    const first = text.charCodeAt(start);
    const name = first === 0x73 ? "state" : first === 0x69 ? "input" : first === 0x63 ? "calls" : undefined;
    if (name !== undefined && text.startsWith(name, start)) return name;
  }
  return text.slice(start, end);
}

/**
 * Scans one reference `†kind path` starting at `start` (which must hold `†`) and stops at the first
 * character that cannot continue the path. The caller decides whether that character is acceptable.
 * Single pass over char codes; never throws.
 */
export function scanReference(text: string, start: number, options: ReferenceScanOptions): ReferenceScan {
  if (text.charCodeAt(start) !== CHAR.dagger) {
    return issueAt(
      "REF_SYNTAX",
      `expected a reference starting with "†", found ${describeCharAt(text, start)}`,
      start,
      daggerHint(text, start, options),
    );
  }
  const kindStart = start + 1;
  let pos = kindStart;
  if (!isNameStartCode(text.charCodeAt(pos))) {
    const message = `expected a kind name after "†", found ${describeCharAt(text, pos)}`;
    return issueAt("REF_SYNTAX", message, pos, spaceAfterDaggerHint(text, pos, options));
  }
  pos++;
  while (pos < text.length && isNameCode(text.charCodeAt(pos))) pos++;
  const kind = kindNameAt(text, kindStart, pos);
  if (!options.kinds.has(kind)) return unknownKindIssue(text, kindStart, pos, kind, options.kinds);
  const scanner = SCANNER;
  scanner.reset(text, start, pos, options);
  const failure = scanner.scanPath();
  if (failure !== undefined) return failure;
  const end = scanner.pos;
  const refText = scanner.canonicalText ?? text.slice(start, end);
  return { ok: true, reference: { kind, path: scanner.takePath(), text: refText }, end };
}

/** Kinds models write for a call's output (LangGraph-style `outputs`, plan `steps`, `results`). */
const CALL_OUTPUT_KINDS: ReadonlySet<string> = new Set([
  "output",
  "outputs",
  "result",
  "results",
  "step",
  "steps",
  "tool_output",
  "tool_outputs",
]);

/**
 * REF_KIND_UNKNOWN for `kind` at `text[start, end)`. For a name models use for a call's output (`†outputs.s`,
 * `†steps.s`) the hint is `did you mean "†calls.s"?` with the rest of the reference kept, marked with
 * `hintKind: "calls"`; else the nearest kind or the known ones.
 */
function unknownKindIssue(
  text: string,
  start: number,
  end: number,
  kind: string,
  kinds: KindTable,
): IssueResult {
  const message = `unknown kind "${kind}"`;
  if (CALL_OUTPUT_KINDS.has(kind) && kinds.has("calls") && text.charCodeAt(end) === CHAR.dot) {
    let stop = end;
    while (
      stop < text.length &&
      !isSpaceCode(text.charCodeAt(stop)) &&
      text.charCodeAt(stop) !== CHAR.closeBrace
    )
      stop++;
    const hint = `did you mean ${JSON.stringify(`†calls${text.slice(end, stop)}`)}? (a call's output is read as †calls.<id>)`;
    return {
      ok: false,
      issue: { code: "REF_KIND_UNKNOWN", message, offset: start, hint, hintKind: "calls" },
    };
  }
  const hint = didYouMean(kind, kinds.keys()) ?? `known kinds: ${[...kinds.keys()].join(", ")}`;
  return issueAt("REF_KIND_UNKNOWN", message, start, hint);
}

/** The hint of `[*]`: the language has no map over a list. */
function mapHint(list: string): string {
  return `there is no map over a list: write one call per item (${list}[0], ${list}[1], …), or pass the whole list ${list} to a tool that loops`;
}

/**
 * The hint of `[]` (`†state.users[]`, decision 0097): a reference names one item; to add to a list, an
 * `_outputPath` names the list and `_outputMethod: "push"` appends.
 */
function appendHint(list: string): string {
  return `to add the call's output to the list, write "_outputPath": "${list}" with "_outputMethod": "push"; to read an item, give its index: ${list}[0]`;
}

/** The hint for a quoted text or a number where an operand of `||` / `&&` belongs. */
const LITERAL_OPERAND_HINT =
  'every operand of || and && is a reference: a literal default is not part of the language; put it in the input or state and read it ("†state.nick || †input.defaultNick")';

/**
 * The hint for a reference written without its dagger (`state.user` where `†state.user` belongs): the
 * reference that `†` + the rest starts with, when that is a known kind followed by a path; for a quoted
 * text or a number after an operator, that operands are references. Only on the error path.
 */
function daggerHint(text: string, start: number, options: ReferenceScanOptions): string | undefined {
  const first = text.charCodeAt(start);
  if (start > 0 && (first === 0x27 || first === 0x22 || (first >= 0x30 && first <= 0x39)))
    return LITERAL_OPERAND_HINT;
  // `$state.x` (the `$tool_output.` alias invites it) or `$.state.x` (JSONPath): read without the `$`.
  if (first === CHAR.dollar) {
    const after = text.charCodeAt(start + 1) === CHAR.dot ? start + 2 : start + 1;
    return isNameStartCode(text.charCodeAt(after)) && text.charCodeAt(after) !== CHAR.dollar
      ? daggerHint(text, after, options)
      : undefined;
  }
  if (!isNameStartCode(first)) {
    // `‡state.x`, `+state.x`, `&dagger;state.x`, `\u2020state.x`: a look-alike of the dagger (decision 0097),
    // by the rule the compiler applies to literals (one test, `sigilLookalikeLength`).
    const after = start + sigilLookalikeLength(text, start);
    return after > start && isNameStartCode(text.charCodeAt(after)) && text.charCodeAt(after) !== CHAR.dollar
      ? daggerHint(text, after, options)
      : undefined;
  }
  let pos = start + 1;
  while (pos < text.length && isNameCode(text.charCodeAt(pos))) pos++;
  const next = text.charCodeAt(pos);
  if ((next !== CHAR.dot && next !== CHAR.openBracket) || !options.kinds.has(text.slice(start, pos)))
    return undefined;
  const scanned = scanReference(`†${text.slice(start)}`, 0, options);
  return scanned.ok
    ? `did you mean ${JSON.stringify(scanned.reference.text)}? (every reference starts with "†")`
    : undefined;
}

/**
 * The hint for spaces after the dagger (`† state.user`): the reference without them, when the rest is a
 * known kind followed by a path. Only on the error path.
 */
function spaceAfterDaggerHint(text: string, pos: number, options: ReferenceScanOptions): string | undefined {
  let after = pos;
  while (after < text.length && isSpaceCode(text.charCodeAt(after))) after++;
  if (after === pos || !isNameStartCode(text.charCodeAt(after))) return undefined;
  const scanned = scanReference(`†${text.slice(after)}`, 0, options);
  return scanned.ok
    ? `remove the space after "†": write ${JSON.stringify(scanned.reference.text)}`
    : undefined;
}

/**
 * Scans the segments of a path; keeps its position and the segments. The canonical text is built only
 * once a segment is written in a non-canonical form (`.0`, `[007]`, `["name"]`): until then it is the
 * source itself. One instance is reused for every scan (`reset`; a scan never starts another), its
 * segments in a scratch list: a scan allocates only the exact-size path it returns (a list grown by push
 * keeps room for 17 segments, and parsed paths live as long as a compiled plan).
 */
class PathScanner {
  readonly #segments: PathSegment[] = [];
  #count = 0;
  /** The canonical text of the reference so far, once the source stopped being canonical. */
  canonicalText: string | undefined = undefined;
  private segment: PathSegment = "";
  private segmentCanonical = true;
  private text = "";
  private start = 0;
  pos = 0;
  private options: ReferenceScanOptions = { kinds: new Map(), maxPathDepth: 0 };

  /** Starts a new scan of `text` (reference at `start`, path at `pos`). */
  reset(text: string, start: number, pos: number, options: ReferenceScanOptions): void {
    this.text = text;
    this.start = start;
    this.pos = pos;
    this.options = options;
    this.canonicalText = undefined;
    this.segment = "";
    this.segmentCanonical = true;
    this.#count = 0;
  }

  /** The segments scanned, as a new exact-size list. */
  takePath(): PathSegment[] {
    const count = this.#count;
    const segments = this.#segments;
    if (count === 0) return [];
    if (count === 1) return [segments[0] as PathSegment];
    if (count === 2) return [segments[0] as PathSegment, segments[1] as PathSegment];
    return segments.slice(0, count);
  }

  /** Scans segments while the next character is `.` or `[`; returns the first issue, if any. */
  scanPath(): IssueResult | undefined {
    const text = this.text;
    while (this.pos < text.length) {
      const code = text.charCodeAt(this.pos);
      const segmentStart = this.pos;
      this.segmentCanonical = true;
      let failure: IssueResult | undefined;
      if (code === CHAR.dot) failure = this.scanDotSegment();
      else if (code === CHAR.openBracket) failure = this.scanBracketSegment();
      else return undefined;
      if (failure !== undefined) return failure;
      if (this.#count >= this.options.maxPathDepth) {
        const max = this.options.maxPathDepth;
        return issueAt("PLAN_LIMIT", `path is deeper than the limit of ${max} segments`, segmentStart);
      }
      this.#segments[this.#count++] = this.segment;
      if (!this.segmentCanonical) {
        const before = this.canonicalText ?? text.slice(this.start, segmentStart);
        this.canonicalText = before + formatSegment(this.segment);
      } else if (this.canonicalText !== undefined) {
        this.canonicalText += text.slice(segmentStart, this.pos);
      }
    }
    return undefined;
  }

  /** `.name` or `.index`. */
  private scanDotSegment(): IssueResult | undefined {
    const text = this.text;
    const start = ++this.pos;
    const code = text.charCodeAt(start);
    if (isNameStartCode(code)) {
      let pos = start + 1;
      while (pos < text.length && isNameCode(text.charCodeAt(pos))) pos++;
      this.pos = pos;
      return this.acceptName(nameAt(text, start, pos), start);
    }
    if (isDigitCode(code) || code === CHAR.minus) {
      this.segmentCanonical = false;
      return this.scanIndex();
    }
    return issueAt(
      "REF_SYNTAX",
      `expected a name or an index after ".", found ${describeCharAt(text, start)}`,
      start,
      bracketNameHint(text, start),
    );
  }

  /** `[index]` or `["json string"]`. */
  private scanBracketSegment(): IssueResult | undefined {
    const text = this.text;
    const start = ++this.pos;
    const code = text.charCodeAt(start);
    let failure: IssueResult | undefined;
    if (code === CHAR.quote) {
      this.segmentCanonical = false;
      failure = this.scanJsonString();
      if (failure === undefined) failure = this.acceptName(this.segment as string, start);
    } else if (isDigitCode(code) || code === CHAR.minus) {
      failure = this.scanIndex();
    } else {
      const found = describeCharAt(text, start);
      const list = text.slice(this.start, start - 1);
      const hint =
        code === CHAR.star ? mapHint(list) : code === CHAR.closeBracket ? appendHint(list) : undefined;
      return issueAt(
        "REF_SYNTAX",
        `expected an index or a JSON string after "[", found ${found}`,
        start,
        hint,
      );
    }
    if (failure !== undefined) return failure;
    if (text.charCodeAt(this.pos) !== CHAR.closeBracket) {
      return issueAt("REF_SYNTAX", `expected "]", found ${describeCharAt(text, this.pos)}`, this.pos);
    }
    this.pos++;
    return undefined;
  }

  /** Records a string segment unless it is forbidden. */
  private acceptName(name: string, offset: number): IssueResult | undefined {
    const length = name.length;
    if ((length === 9 || length === 11) && FORBIDDEN_SEGMENTS.has(name)) {
      return issueAt(
        "REF_FORBIDDEN_SEGMENT",
        `the path segment "${name}" is not allowed`,
        offset,
        FORBIDDEN_SEGMENT_HINT,
      );
    }
    this.segment = name;
    return undefined;
  }

  /** `-?[0-9]+` as a safe integer. */
  private scanIndex(): IssueResult | undefined {
    const text = this.text;
    const start = this.pos;
    const negative = text.charCodeAt(start) === CHAR.minus;
    let pos = negative ? start + 1 : start;
    const digitsStart = pos;
    let value = 0;
    while (pos < text.length && isDigitCode(text.charCodeAt(pos))) {
      value = value * 10 + (text.charCodeAt(pos) - CHAR.zero);
      pos++;
    }
    const digits = pos - digitsStart;
    if (digits === 0) {
      return issueAt("REF_SYNTAX", `expected a digit after "-", found ${describeCharAt(text, pos)}`, pos);
    }
    if (digits > MAX_INDEX_DIGITS) return issueAt("REF_SYNTAX", "index is too large", start);
    if (negative && this.options.forbidNegativeIndex === true) {
      return issueAt("REF_SYNTAX", "a negative index is not allowed when writing", start);
    }
    if ((digits > 1 && text.charCodeAt(digitsStart) === CHAR.zero) || (negative && value === 0)) {
      this.segmentCanonical = false;
    }
    this.pos = pos;
    this.segment = negative && value !== 0 ? -value : value;
    return undefined;
  }

  /** A JSON string starting at the opening quote; decodes JSON escapes. */
  private scanJsonString(): IssueResult | undefined {
    const text = this.text;
    const open = this.pos;
    let pos = open + 1;
    let chunkStart = pos;
    let decoded = "";
    while (pos < text.length) {
      const code = text.charCodeAt(pos);
      if (code === CHAR.quote) {
        this.segment = decoded + text.slice(chunkStart, pos);
        this.pos = pos + 1;
        return undefined;
      }
      if (code < 0x20) return issueAt("REF_SYNTAX", "control character in a JSON string", pos);
      if (code === CHAR.backslash) {
        decoded += text.slice(chunkStart, pos);
        const escaped = decodeEscape(text, pos);
        if (escaped === undefined) return issueAt("REF_SYNTAX", "invalid escape in a JSON string", pos);
        decoded += escaped;
        pos += text.charCodeAt(pos + 1) === 0x75 ? 6 : 2;
        chunkStart = pos;
        continue;
      }
      pos++;
    }
    return issueAt("REF_SYNTAX", "unterminated JSON string", open);
  }
}

const SCANNER = new PathScanner();

/**
 * Names scanned lately, by a slot of their first and last character and length: plans repeat names
 * (`.text`, `.result` in every reference to a call's output), and a repeated one is returned instead of
 * a new copy that would live as long as the parsed path. A fixed table: nothing accumulates.
 */
const NAMES: (string | undefined)[] = new Array(256).fill(undefined);
/** Longer slices may be views into their source text, which the table would then keep alive. */
const MAX_SHARED_NAME = 12;

/** The name `text[start, end)`: a recently scanned equal string, or a new slice. */
function nameAt(text: string, start: number, end: number): string {
  const length = end - start;
  if (length > MAX_SHARED_NAME) return text.slice(start, end);
  const slot = (text.charCodeAt(start) * 31 + text.charCodeAt(end - 1) * 7 + length) & 255;
  const known = NAMES[slot];
  if (known !== undefined && known.length === length && text.startsWith(known, start)) return known;
  const name = text.slice(start, end);
  NAMES[slot] = name;
  return name;
}

const SIMPLE_ESCAPES: Readonly<Record<string, string>> = {
  '"': '"',
  "\\": "\\",
  "/": "/",
  b: "\b",
  f: "\f",
  n: "\n",
  r: "\r",
  t: "\t",
};

/** Decodes the escape at `pos` (a backslash); `undefined` when invalid. */
function decodeEscape(text: string, pos: number): string | undefined {
  const next = text[pos + 1];
  if (next === undefined) return undefined;
  if (next === "u") {
    let value = 0;
    for (let i = pos + 2; i < pos + 6; i++) {
      const digit = hexValue(text.charCodeAt(i));
      if (digit < 0) return undefined;
      value = value * 16 + digit;
    }
    return String.fromCharCode(value);
  }
  return Object.hasOwn(SIMPLE_ESCAPES, next) ? SIMPLE_ESCAPES[next] : undefined;
}

/** Value of one hex digit, or -1. */
function hexValue(code: number): number {
  if (code >= 0x30 && code <= 0x39) return code - 0x30;
  if (code >= 0x61 && code <= 0x66) return code - 0x57;
  if (code >= 0x41 && code <= 0x46) return code - 0x37;
  return -1;
}
