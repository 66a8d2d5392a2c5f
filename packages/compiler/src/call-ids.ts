import type { Diagnostic, JsonObject, JsonValue } from "@obelisk/core";
import { appendPointer, FORBIDDEN_SEGMENTS, isValidCallId } from "@obelisk/core";
import { makeDiagnostic } from "./make-diagnostic.js";

/** The hint of CALL_ID_INVALID. */
const CALL_ID_HINT =
  "a call id starts with a letter or _ and continues with letters, digits, _ or - (no $, which automatic ids use), and is not __proto__, prototype or constructor";

/**
 * A call's `_id` when it is one `CallIds.resolve` accepts (format only: not whether another call has it).
 * A forbidden segment (SPEC §2 rule 5) could never be read as †calls.<id>, and must never become a key.
 */
export function validGivenId(given: JsonValue | undefined): string | undefined {
  return typeof given === "string" && isValidCallId(given) && !FORBIDDEN_SEGMENTS.has(given)
    ? given
    : undefined;
}

/**
 * The plan builder's call ids: a call's given `_id` checked (CALL_ID_INVALID, CALL_ID_DUPLICATE), or the
 * next automatic one (`<tool>$<n>`, skipping ids in use).
 */
export class CallIds {
  #next: number;
  /** Automatic ids given so far. */
  #used = 0;
  /** Whether the valid `_id` that `resolve` last saw belongs to a compiled call (then it is not usable). */
  #givenCompiled = false;
  /** What `mark` saw, for `rewind`. */
  #markedNext = 0;
  #markedUsed = 0;

  /** Ids automatic ids skip (besides the compiled calls'). */
  readonly #usedCallIds: ReadonlySet<string>;
  /** The compiled calls by id. */
  readonly #compiled: ReadonlyMap<string, unknown>;
  /** Ids of calls that could not be compiled. */
  readonly #phantomIds: ReadonlySet<string>;

  constructor(
    firstAutoIdNumber: number,
    usedCallIds: ReadonlySet<string>,
    compiled: ReadonlyMap<string, unknown>,
    phantomIds: ReadonlySet<string>,
  ) {
    this.#next = firstAutoIdNumber;
    this.#usedCallIds = usedCallIds;
    this.#compiled = compiled;
    this.#phantomIds = phantomIds;
  }

  /** Automatic ids given so far. */
  get used(): number {
    return this.#used;
  }

  /** Remembers the automatic numbering before a call, for `rewind`. */
  mark(): void {
    this.#markedNext = this.#next;
    this.#markedUsed = this.#used;
  }

  /** Gives back the automatic number the call since `mark` took (a refused streamed call). */
  rewind(): void {
    this.#next = this.#markedNext;
    this.#used = this.#markedUsed;
  }

  /** The id of the call `raw` at `pointer` (an automatic one when it has no `_id` and its tool is known). */
  resolve(raw: JsonObject, pointer: string, tool: string | undefined, out: Diagnostic[]): string | undefined {
    const value = raw._id;
    if (value === undefined) return tool === undefined ? undefined : this.#autoId(tool);
    const given = validGivenId(value);
    if (given === undefined) {
      const at = appendPointer(pointer, "_id");
      out.push(
        makeDiagnostic("CALL_ID_INVALID", `invalid call id ${JSON.stringify(value)}`, at, {
          hint: CALL_ID_HINT,
        }),
      );
      return undefined;
    }
    // Used before: by a compiled call (auto ids hold a `$`, never equal to a given id), or by a call that
    // could not be compiled (batch). A call refused while streaming leaves its id free. No set of every
    // given id is kept.
    const compiled = this.#compiled.has(given);
    this.#givenCompiled = compiled;
    if (compiled || this.#phantomIds.has(given)) {
      const at = appendPointer(pointer, "_id");
      out.push(
        makeDiagnostic("CALL_ID_DUPLICATE", `call id "${given}" is used twice`, at, {
          callId: given,
          related: [given],
          hint: "give each call its own _id (letters, digits, _ or -), or leave _id out for an automatic one",
        }),
      );
    }
    return given;
  }

  /** An automatic id is always usable; a given one unless a compiled call has it (known from `resolve`). */
  usable(raw: JsonObject): boolean {
    return raw._id === undefined || !this.#givenCompiled;
  }

  #autoId(tool: string): string {
    let id = `${tool}$${this.#next}`;
    while (this.#usedCallIds.has(id) || this.#compiled.has(id)) id = `${tool}$${++this.#next}`;
    this.#next++;
    this.#used++;
    return id;
  }
}
