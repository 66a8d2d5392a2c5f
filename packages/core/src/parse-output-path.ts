import { joinOutputPath } from "./format-output-path.js";
import { DEFAULT_KINDS, type KindTable } from "./kinds.js";
import type { OutputPath, OutputTarget, ParseResult } from "./language-ast.js";
import {
  bracketNameHint,
  describeCharAt,
  type IssueResult,
  issueAt,
  TRAILING_SPACE_HINT,
} from "./language-issue.js";
import { DEFAULT_LIMITS, type Limits } from "./limits.js";
import { isSpaceCode } from "./name-grammar.js";
import { pathsOverlap } from "./paths-overlap.js";
import { type ReferenceScanOptions, scanReference } from "./reference-scanner.js";
import { type OperandScan, scanAlternatives } from "./scan-alternatives.js";

/** A parsed target's text is already canonical: the output path's text joins them without re-formatting paths. */
const targetText = (target: OutputTarget): string => target.text;

/**
 * Parses an `_outputPath` (SPEC §3): `||` alternatives of `&&` targets, each a writable kind with a path
 * whose first segment is a name and without negative indices; targets of one alternative may not overlap.
 * `text` of the result is canonical. Never throws.
 */
export function parseOutputPath(
  text: string,
  kinds: KindTable = DEFAULT_KINDS,
  limits: Pick<Limits, "maxPathDepth"> & Partial<Pick<Limits, "maxOutputTargets">> = DEFAULT_LIMITS,
): ParseResult<OutputPath> {
  const context = contextFor(kinds, limits.maxPathDepth);
  const starts = context.starts;
  // Emptied by pop: `length = 0` would drop the list's storage, and the next push allocate it again.
  while (starts.length > 0) starts.pop();
  const scan = scanAlternatives(text, 0, scanStartedTarget, context);
  if (!scan.ok) return leadingSpace(text) ?? asOutputPathIssue(scan);
  if (scan.end !== text.length) return unexpectedAfterTarget(text, scan.end);
  const maxTargets = limits.maxOutputTargets ?? DEFAULT_LIMITS.maxOutputTargets;
  if (starts.length > maxTargets) return tooManyTargets(starts.length, maxTargets, starts[maxTargets] ?? 0);
  const overlap = findOverlap(scan.alternatives, starts);
  if (overlap !== undefined) return overlap;
  const alternatives = scan.alternatives;
  return { ok: true, value: { alternatives, text: joinOutputPath(alternatives, targetText) } };
}

/** What scanning the targets of one output path keeps: the scan options and where each target starts. */
interface TargetContext {
  readonly options: ReferenceScanOptions;
  readonly starts: number[];
}

/**
 * The context of the latest parse, reused while the kinds and depth limit stay the same (a plan's output
 * paths are parsed one after the other with the same ones; a parse never starts another): no options
 * object and no list of starts per parse.
 */
let lastContext: TargetContext | undefined;

function contextFor(kinds: KindTable, maxPathDepth: number): TargetContext {
  const last = lastContext;
  if (last !== undefined && last.options.kinds === kinds && last.options.maxPathDepth === maxPathDepth)
    return last;
  const context: TargetContext = { options: { kinds, maxPathDepth, forbidNegativeIndex: true }, starts: [] };
  lastContext = context;
  return context;
}

/** One target, remembering where it starts. */
function scanStartedTarget(text: string, offset: number, context: TargetContext): OperandScan<OutputTarget> {
  const target = scanTarget(text, offset, context.options);
  if (target.ok) context.starts.push(offset);
  return target;
}

/** One target: a reference to a writable kind whose path starts with a name. */
function scanTarget(text: string, start: number, options: ReferenceScanOptions): OperandScan<OutputTarget> {
  const scan = scanReference(text, start, options);
  if (!scan.ok) return scan;
  const { kind, path } = scan.reference;
  if (options.kinds.get(kind)?.writable !== true) {
    const writable = [...options.kinds.values()].filter((info) => info.writable).map((info) => info.kind);
    const hint = writable.length > 0 ? `write to ${writable.map((k) => `†${k}`).join(" or ")}` : undefined;
    return issueAt("OUTPUT_PATH_READONLY", `the kind "${kind}" is not writable`, start + 1, hint);
  }
  const first = path[0];
  if (first === undefined) {
    const message = `an output path needs at least one name segment, e.g. †${kind}.result`;
    return issueAt("OUTPUT_PATH_SYNTAX", message, scan.end);
  }
  if (typeof first !== "string") {
    const message = "the first segment of an output path must be a name, not an index";
    return issueAt("OUTPUT_PATH_SYNTAX", message, start + 1 + kind.length);
  }
  return { ok: true, value: scan.reference, end: scan.end };
}

/** PLAN_LIMIT at the first target beyond `maxOutputTargets`. */
function tooManyTargets(count: number, max: number, offset: number): IssueResult {
  const message = `${count} targets in one _outputPath, more than the limit of ${max} (maxOutputTargets)`;
  return issueAt(
    "PLAN_LIMIT",
    message,
    offset,
    "write the value once and let the readers read that one path",
  );
}

/** The first pair of overlapping targets inside one alternative, reported at the later target. */
function findOverlap(
  alternatives: readonly (readonly OutputTarget[])[],
  starts: readonly number[],
): IssueResult | undefined {
  let index = 0;
  for (const targets of alternatives) {
    for (let i = 0; i < targets.length; i++) {
      const target = targets[i] as OutputTarget;
      for (let j = 0; j < i; j++) {
        const earlier = targets[j] as OutputTarget;
        if (earlier.kind === target.kind && pathsOverlap(earlier.path, target.path)) {
          const message = `targets ${earlier.text} and ${target.text} overlap; each "&&" target must be distinct`;
          return issueAt("OUTPUT_PATH_SYNTAX", message, starts[index + i] ?? 0);
        }
      }
    }
    index += targets.length;
  }
  return undefined;
}

/** Reference syntax errors inside an output path are reported as `OUTPUT_PATH_SYNTAX`. */
function asOutputPathIssue(failure: IssueResult): IssueResult {
  if (failure.issue.code !== "REF_SYNTAX") return failure;
  return { ok: false, issue: { ...failure.issue, code: "OUTPUT_PATH_SYNTAX" } };
}

/** Whitespace before a first target that starts with the dagger: its own hint, as whitespace at the end has. */
function leadingSpace(text: string): IssueResult | undefined {
  let pos = 0;
  while (pos < text.length && isSpaceCode(text.charCodeAt(pos))) pos++;
  if (pos === 0 || text.charCodeAt(pos) !== DAGGER_CODE) return undefined;
  return issueAt("OUTPUT_PATH_SYNTAX", "unexpected whitespace at the start", 0, LEADING_SPACE_HINT);
}

/** The dagger's UTF-16 code unit. */
const DAGGER_CODE = 0x2020;

/** The hint for whitespace before an output path's first target. */
const LEADING_SPACE_HINT = 'remove the whitespace at the start: an output path begins with "†"';

/** The issue for text left over after the last target: reported at the first non-space character. */
function unexpectedAfterTarget(text: string, offset: number): IssueResult {
  let pos = offset;
  while (pos < text.length && isSpaceCode(text.charCodeAt(pos))) pos++;
  if (pos >= text.length)
    return issueAt("OUTPUT_PATH_SYNTAX", "unexpected whitespace at the end", offset, TRAILING_SPACE_HINT);
  const found = describeCharAt(text, pos);
  return issueAt(
    "OUTPUT_PATH_SYNTAX",
    `unexpected ${found} after a target; expected "||" or "&&"`,
    pos,
    bracketNameHint(text, pos),
  );
}
