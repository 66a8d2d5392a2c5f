import type { Diagnostic } from "./diagnostic.js";
import { OPEN_BRACE, OPEN_BRACKET } from "./json-char-codes.js";
import { BACKTICK, isBlank, opensPlan } from "./plan-text-chars.js";
import { TextLines, type TextPosition } from "./plan-text-position.js";

/** The most UTF-16 units an excerpt of the text after a plan keeps (before its `…`). */
export const EXCERPT_UNITS = 80;

/** A place in the text as fed (0-based offset in UTF-16 units, 1-based line and column) and the text from it. */
export interface PlanTextExcerpt {
  readonly offset: number;
  readonly line: number;
  readonly column: number;
  /** The text from there: its first {@link EXCERPT_UNITS} characters at most, ending with `…` when cut. */
  readonly excerpt: string;
}

/**
 * Text other than blanks after the plan's closing bracket (and after its closing fence line): skipped, never
 * read as JSON. Where it starts, its length to the end of the text, an excerpt, and where another plan seems
 * to start in it.
 */
export interface PlanTextAfter extends PlanTextExcerpt {
  /** UTF-16 units from its first character to the end of the text. */
  readonly length: number;
  /**
   * A `[` or `{` that can open another plan (`[` then `{` or `]`, `{` then `"` or `}`, as before the plan)
   * and begins a line (only blanks before it on its line, e.g. after a fence line) or comes first after the
   * plan: a second plan the stream did not read. Brackets within a line of prose ("[step 2]") are not.
   */
  readonly secondPlan?: PlanTextExcerpt;
}

// What the text after the plan is so far.
const BLANKS = 0; // only blanks (or the closing fence and blanks)
const FENCE = 1; // backticks first: maybe the plan's closing fence
const FENCE_END = 2; // three backticks or more, then blanks: a line end makes them the closing fence
const TEXT = 3; // text: looking for a bracket that opens another plan
const FOUND = 4; // another plan found: only the excerpts fill

const LINE_FEED = 0x0a;
const CARRIAGE_RETURN = 0x0d;

/**
 * Follows the text after a plan's closing bracket, which the reader skips, to tell what it skipped: where
 * the text starts, an excerpt, and a second plan in it. Keeps two excerpts and counters (bounded whatever
 * the text's length); stops looking at characters once a second plan is found and both excerpts are full.
 */
export class TextAfterPlan {
  private phase = BLANKS;
  private backticks = 0;
  private fenceSkipped = false;
  private readonly lines: TextLines;
  /** Only blanks before this point on its line, or nothing but blanks after the plan yet. */
  private lineBlank = true;
  private start: TextPosition | undefined;
  private excerpt = "";
  /** A bracket beginning a line, waiting for the next character that is not blank. */
  private bracket = 0;
  private bracketAt: TextPosition | undefined;
  private planExcerpt = "";
  private end = 0;

  /** Starts right after the plan's closing bracket, at `at`. */
  constructor(at: TextPosition) {
    this.lines = TextLines.from(at);
    this.end = at.offset;
  }

  /** Reads `chunk` from `from`; `base` is the chunk's offset in the text. */
  read(chunk: string, from: number, base: number): void {
    this.end = base + chunk.length;
    for (let index = from; index < chunk.length; index++) {
      if (this.phase === FOUND && this.planExcerpt.length >= EXCERPT_UNITS) return;
      const code = chunk.charCodeAt(index);
      const offset = base + index;
      this.step(code, offset);
      if (code === LINE_FEED || code === CARRIAGE_RETURN) this.lines.newLine(code, offset);
    }
  }

  /** What came after the plan: undefined when only blanks (and its closing fence) did. */
  result(): PlanTextAfter | undefined {
    const start = this.start;
    if (start === undefined || (this.phase !== TEXT && this.phase !== FOUND && this.backticks >= 3))
      return undefined;
    const after = { ...start, length: this.end - start.offset, excerpt: this.cut(this.excerpt, start) };
    const at = this.bracketAt;
    if (this.phase !== FOUND || at === undefined) return after;
    return { ...after, secondPlan: { ...at, excerpt: this.cut(this.planExcerpt, at) } };
  }

  private step(code: number, offset: number): void {
    if (this.phase === BLANKS) {
      if (isBlank(code)) return;
      this.start = this.lines.positionOf(offset);
      this.excerpt = "";
      this.phase = code === BACKTICK && !this.fenceSkipped ? FENCE : TEXT;
    }
    if (this.phase === FENCE || this.phase === FENCE_END) {
      if (this.fence(code)) return;
      this.phase = TEXT;
      this.lineBlank = false; // the backticks began the line
    }
    this.keep(code);
    if (this.phase === TEXT) this.text(code, offset);
  }

  /** A character of what may be the plan's closing fence; false when it is no fence (the text begins). */
  private fence(code: number): boolean {
    if (code === LINE_FEED || code === CARRIAGE_RETURN) {
      if (this.backticks < 3) return false;
      // the plan's closing fence: not text after it
      this.start = undefined;
      this.backticks = 0;
      this.fenceSkipped = true;
      this.phase = BLANKS;
      this.lineBlank = true;
      return true;
    }
    if (code === BACKTICK && this.phase === FENCE) this.backticks++;
    else if ((code === 0x20 || code === 0x09) && this.backticks >= 3) this.phase = FENCE_END;
    else return false;
    this.keep(code);
    return true;
  }

  /** A character of the text after the plan: finds a bracket that begins a line and can open a plan. */
  private text(code: number, offset: number): void {
    if (this.bracket !== 0) {
      if (isBlank(code)) return;
      if (opensPlan(this.bracket, code)) {
        this.phase = FOUND;
        return;
      }
      this.bracket = 0;
      this.planExcerpt = "";
    }
    if (code === LINE_FEED || code === CARRIAGE_RETURN) this.lineBlank = true;
    else if (!isBlank(code)) {
      if (this.lineBlank && (code === OPEN_BRACKET || code === OPEN_BRACE)) {
        this.bracket = code;
        this.bracketAt = this.lines.positionOf(offset);
        this.planExcerpt = String.fromCharCode(code);
      }
      this.lineBlank = false;
    }
  }

  /** Adds `code` to the excerpts that are being filled. */
  private keep(code: number): void {
    if (this.excerpt.length < EXCERPT_UNITS) this.excerpt += String.fromCharCode(code);
    if (this.bracket !== 0 && this.planExcerpt.length < EXCERPT_UNITS)
      this.planExcerpt += String.fromCharCode(code);
  }

  /** `kept`, the first characters of the text from `from` to the end, with `…` when it is longer. */
  private cut(kept: string, from: TextPosition): string {
    if (this.end - from.offset <= kept.length) return kept;
    const last = kept.charCodeAt(kept.length - 1);
    // a high surrogate whose pair was cut off is left out
    return `${last >= 0xd800 && last <= 0xdbff ? kept.slice(0, -1) : kept}…`;
  }
}

/** Whether the text from `from`, after a plan, holds a second plan (as {@link PlanTextAfter.secondPlan} tells). */
export function holdsSecondPlan(text: string, from: number): boolean {
  const after = new TextAfterPlan({ offset: from, line: 1, column: from + 1 });
  after.read(text, from, 0);
  return after.result()?.secondPlan !== undefined;
}

/**
 * The warning for a second plan in the text after the first (`STREAM_SECOND_PLAN`): the stream read only
 * the first. None when no text after the plan looks like one.
 */
export function secondPlanWarnings(after: PlanTextAfter | undefined): Diagnostic[] {
  const second = after?.secondPlan;
  if (second === undefined) return [];
  const where = `line ${second.line}, column ${second.column}`;
  const shown = second.excerpt.replace(/\s+/g, " ");
  return [
    {
      code: "STREAM_SECOND_PLAN",
      severity: "warning",
      message: `the text holds a second plan after the first, at ${where}: \`${shown}\`; it was skipped, only the first plan's calls were read`,
      pointer: "",
      hint: "send one plan, or merge the calls into one list",
    },
  ];
}
