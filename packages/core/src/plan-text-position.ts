import type { DiagnosticCode } from "./diagnostic-codes.js";
import { ObeliskError } from "./obelisk-error.js";

/** A place in streamed plan text: 0-based offset (UTF-16 units of the text as fed), 1-based line and column. */
export interface TextPosition {
  readonly offset: number;
  readonly line: number;
  readonly column: number;
}

/** What a plan text stream's ObeliskError carries in `data`: where the problem is, and how far the stream got. */
export interface PlanTextErrorData extends TextPosition {
  /** JSON Pointer of the value at fault in the plan document, when the problem is inside one. */
  readonly pointer?: string;
  /** How many calls the stream had yielded before the problem (they stay yielded). */
  readonly calls: number;
}

/** Follows the lines of streamed text (a line ends at `\n`, `\r\n` or `\r`) to tell the position of an offset. */
export class TextLines {
  private lastCarriageReturn = -2;

  /** Starts at `line`, whose first character is at offset `lineStart`. */
  constructor(
    private line = 1,
    private lineStart = 0,
  ) {}

  /** The lines of a text that continues from `at`. */
  static from(at: TextPosition): TextLines {
    return new TextLines(at.line, at.offset - at.column + 1);
  }

  /** The `\n` or `\r` (`code`) at `offset` ends a line (a `\n` right after a `\r` ends none). */
  newLine(code: number, offset: number): void {
    if (code === 0x0d) this.lastCarriageReturn = offset;
    if (code === 0x0a && this.lastCarriageReturn === offset - 1) {
      this.lineStart = offset + 1;
      return;
    }
    this.line++;
    this.lineStart = offset + 1;
  }

  /** The position of `offset`, on the line read last. */
  positionOf(offset: number): TextPosition {
    return { offset, line: this.line, column: offset - this.lineStart + 1 };
  }
}

const STRICT_HINT = "the plan must be strict JSON (no comments, no trailing commas)";

/** The ObeliskError for a problem at `at`: `code`, a message naming line and column, the position in `data`. */
export function planTextError(
  code: DiagnosticCode,
  what: string,
  at: TextPosition,
  details: { readonly pointer?: string; readonly hint?: string; readonly calls: number },
): ObeliskError {
  const data: PlanTextErrorData = {
    offset: at.offset,
    line: at.line,
    column: at.column,
    ...(details.pointer === undefined ? {} : { pointer: details.pointer }),
    calls: details.calls,
  };
  const hint = details.hint ?? (code === "JSON_SYNTAX" ? STRICT_HINT : undefined);
  const message = `plan text at line ${at.line}, column ${at.column}: ${what}`;
  return new ObeliskError(code, message, hint === undefined ? { data } : { data, hint });
}

/** The position `relative` characters into `text`, which starts at `start` (lines end at `\n`, `\r\n` or `\r`). */
export function positionWithin(text: string, start: TextPosition, relative: number): TextPosition {
  const end = Math.max(0, Math.min(relative, text.length));
  let line = start.line;
  let lineStart = start.offset - start.column + 1;
  for (let index = 0; index < end; index++) {
    const code = text.charCodeAt(index);
    if (code === 10 || code === 13) {
      if (code === 13 && text.charCodeAt(index + 1) === 10) index++;
      line++;
      lineStart = start.offset + index + 1;
    }
  }
  const offset = start.offset + end;
  return { offset, line, column: offset - lineStart + 1 };
}
