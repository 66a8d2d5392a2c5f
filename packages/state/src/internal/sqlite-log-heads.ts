import type { OutputMethod, Path } from "@obelisk/core";
import type { WriteLogEntry } from "../store-types.js";
import { parseStoredMutable } from "./parse-frozen.js";

/** What compacting needs of a write-log row of the SQLite store, read without parsing the value. */
export interface LogHead {
  readonly seq: number;
  readonly runId: string;
  readonly callId: string;
  readonly path: Path;
  readonly method: OutputMethod;
  readonly op?: "unset" | "reset";
  readonly compacted?: true;
  /** The row's JSON text (characters). */
  readonly text: string;
}

const COMPACTED = ',"compacted":true}';

/** The `op` and `compacted` keys written after the write, read from the end of the text. */
function tailOf(text: string): { op?: "unset" | "reset"; compacted: boolean } {
  const compacted = text.endsWith(COMPACTED);
  const end = compacted ? text.length - COMPACTED.length : text.length;
  const rest = `${text.slice(Math.max(0, end - 16), end)}${compacted ? "}" : ""}`;
  if (rest.endsWith(',"op":"unset"}')) return { op: "unset", compacted };
  if (rest.endsWith(',"op":"reset"}')) return { op: "reset", compacted };
  return { compacted };
}

/**
 * The head of a write-log row: its entry up to the write's value, parsed alone (the value, however large,
 * is only scanned for the end of the text). The store writes every entry with its keys in one order
 * (`seq`, `runId`, `call`, `date`, `write` with `path`, `method`, `value`, `reference`, then `op` and
 * `compacted`), and a `,"value":` outside the value can only be the write's key: inside a JSON string its
 * quote is escaped. A row of another shape is parsed whole (a damaged one: STORE_ERROR naming `threadId`).
 */
export function logHead(text: string, threadId?: string): LogHead {
  const at = text.indexOf(',"value":');
  if (at > 0) {
    try {
      const head = JSON.parse(`${text.slice(0, at)}}}`) as Partial<WriteLogEntry>;
      const { op, compacted } = tailOf(text);
      if (typeof head.seq === "number" && head.write !== undefined && Array.isArray(head.write.path))
        return {
          seq: head.seq,
          runId: String(head.runId),
          callId: String(head.call?.id),
          path: head.write.path,
          method: head.write.method,
          ...(op === undefined ? {} : { op }),
          ...(compacted ? { compacted: true as const } : {}),
          text,
        };
    } catch {
      // parsed whole below
    }
  }
  const entry = parseStoredMutable<WriteLogEntry>(text, { table: "write_log", column: "entry", threadId });
  return {
    seq: entry.seq,
    runId: entry.runId,
    callId: entry.call.id,
    path: entry.write.path,
    method: entry.write.method,
    ...(entry.op === undefined ? {} : { op: entry.op }),
    ...(entry.compacted === true ? { compacted: true as const } : {}),
    text,
  };
}
