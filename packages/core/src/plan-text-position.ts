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
