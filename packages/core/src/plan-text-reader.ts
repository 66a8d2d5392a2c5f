import type { DiagnosticCode } from "./diagnostic-codes.js";
import {
  CLOSE_BRACE,
  CLOSE_BRACKET,
  COLON,
  COMMA,
  OPEN_BRACE,
  OPEN_BRACKET,
  QUOTE,
} from "./json-char-codes.js";
import { setOwn } from "./json-container.js";
import { appendPointer } from "./json-pointer.js";
import type { JsonObject, JsonValue } from "./json-value.js";
import type { Limits } from "./limits.js";
import { normalizePlanShape } from "./normalize-plan.js";
import { readJsonText } from "./parse-json-text.js";
import type { PlanForm } from "./plan-document.js";
import { depthLimitDiagnostic } from "./plan-limit-diagnostics.js";
import { BACKTICK, isBlank, opensPlan } from "./plan-text-chars.js";
import { planTextError, positionWithin, TextLines, type TextPosition } from "./plan-text-position.js";
import { quickJsonValue } from "./quick-json-value.js";
import { scanNestingDepth } from "./scan-nesting-depth.js";
import { type PlanTextAfter, TextAfterPlan } from "./text-after-plan.js";
import { utf8LengthExceeds } from "./utf8-length.js";
import { utf8UnitBytes } from "./utf8-unit-bytes.js";
import { ENDED_BEFORE, ENDED_WITH, INSIDE, TOO_DEEP, ValueEndScanner } from "./value-end-scanner.js";
import { ValueTextPieces } from "./value-text-pieces.js";

// Where the reader is in the plan's outline (the brackets and members around the calls).
const PRELUDE = 0; // before the plan's opening bracket: skipped
const ARRAY_OPEN = 1; // after `[`: a call or `]`
const ARRAY_NEXT = 2; // after `,`: a call
const ARRAY_AFTER = 3; // after a call: `,` or `]`
const OBJECT_OPEN = 4; // after the root `{`: a member name or `}`
const OBJECT_KEY = 5; // after `,`: a member name
const OBJECT_COLON = 6;
const OBJECT_VALUE = 7;
const OBJECT_AFTER = 8; // after a member: `,` or `}`
const DONE = 9; // after the root closed: the rest is not read (TextAfterPlan tells what it holds)
const ROOT_PENDING = 10; // after a `[` or `{` in the prelude: the next character tells whether it opens the plan

// What the value being read is.
const CALL = 0;
const KEY = 1;
const MEMBER = 2;

/** A byte order mark: not counted in the document's size when it leads the text (`parsePlanText` drops it). */
const BOM = 0xfeff;

/** Up to this `maxDepth` a value is read by `JSON.parse` first (readJsonText's own bound: beyond it, the tree). */
const QUICK_MAX_DEPTH = 1000;

/** The document members strict-schema text writes as null when absent. */
const STRICT_ABSENT = new Set(["id", "description"]);

/** The keys whose array a plan document's calls are in (SPEC §5), in normalizePlan's order of precedence. */
const CALL_LISTS = new Set(["plan", "calls"]);

/**
 * The state machine behind `createPlanTextStream`: reads the plan's outline character by character and
 * each value in it only as far as needed to find its end (brackets, strings and escapes), then reads the
 * value's text with the strict JSON reader. Keeps only the text of the value being read. The limits of the
 * whole document are counted as `run` counts them on the same text: its size (every character up to the
 * plan's end and the blanks after it), its depth (a value's from the root, not from the value) and its
 * number of calls.
 */
export class PlanTextReader {
  private state = PRELUDE;
  private form: PlanForm | undefined;
  private calls = 0;
  /** The document's members read so far (the call list left out); for one call, the call's members. */
  private readonly members: Record<string, JsonValue> = {};
  private readonly memberAt = new Map<string, TextPosition>();
  private rootAt: TextPosition = { offset: 0, line: 1, column: 1 };
  /** The bracket that may open the plan (ROOT_PENDING), and whether text other than blanks came before it. */
  private pendingRoot = 0;
  private afterProse = false;
  /** The backticks that begin the prelude's current line (-1: the line begins with other text). */
  private fence = 0;
  private listKey: string | undefined;
  private key = "";
  private sawTool = false;
  // the value being read
  private inValue = false;
  private role = CALL;
  private readonly value: ValueEndScanner;
  private readonly pieces = new ValueTextPieces();
  private valueFrom = 0;
  private valueAt: TextPosition = this.rootAt;
  // where the current chunk starts in the text
  private base = 0;
  private readonly lines = new TextLines();
  /** UTF-8 bytes of the text read so far, and the UTF-16 unit read last (a surrogate pair may be split). */
  private bytes = 0;
  private lastUnit = 0;
  /** After the plan: only blanks so far (counted in its size, as `run` counts them; the rest is not read). */
  private blanksAfter = true;
  /** What the text after the plan holds (skipped, but told by `finish`). */
  private after: TextAfterPlan | undefined;
  private output: JsonValue[] = [];
  /**
   * The calls of a document's list read while the document may still turn out to be one call whose
   * parameter is named `plan` or `calls` (a `_tool` after the list: `run` reads it so): handed out when
   * the document closes as a plan — or it may be refused (a `calls` list beside `"type": "plan"`). Not
   * used for a `plan` list after `"type": "plan"` (then a `_tool` is refused, never a call) nor for a bare
   * array.
   */
  private held: JsonValue[] | undefined;

  /** Whether `parse` may take `quickJsonValue`'s answer (as readJsonText does up to this depth). */
  private readonly quick: boolean;

  constructor(
    private readonly limits: Limits,
    /** Strict-schema text: the document's null `id`/`description` are absent (see PlanTextStreamOptions). */
    private readonly strict = false,
  ) {
    this.quick = limits.maxDepth <= QUICK_MAX_DEPTH;
    this.value = new ValueEndScanner();
  }

  /** Reads `chunk`, adding the calls it completes to `output`; throws the text's first problem. */
  read(chunk: string, output: JsonValue[]): void {
    this.output = output;
    const length = chunk.length;
    let index = 0;
    for (; index < length && this.state !== DONE; index++) {
      const code = chunk.charCodeAt(index);
      this.count(code, chunk, index);
      if (this.inValue) {
        const step = this.value.step(code);
        if (step > ENDED_WITH) throw this.scanProblem(step, chunk, index);
        if (step !== INSIDE) this.finishValue(chunk, step === ENDED_WITH ? index + 1 : index);
        if (step !== ENDED_BEFORE) {
          if (code === 0x0a || code === 0x0d) this.lines.newLine(code, this.base + index);
          continue;
        }
      }
      this.outline(code, index);
      if (code === 0x0a || code === 0x0d) this.lines.newLine(code, this.base + index);
    }
    if (index > 0) this.lastUnit = chunk.charCodeAt(index - 1);
    if (this.state === DONE) {
      this.after ??= new TextAfterPlan(this.lines.positionOf(this.base + index));
      this.after.read(chunk, index, this.base);
      this.countBlanksAfter(chunk, index);
    }
    if (this.inValue) this.pieces.push(chunk.slice(this.valueFrom));
    this.valueFrom = 0;
    this.base += length;
  }

  /** Counts the character at `index` in the document's size; refuses the document past `maxDocumentBytes`. */
  private count(code: number, chunk: string, index: number): void {
    if (code < 0x80) this.bytes++;
    else if (code !== BOM || this.base + index !== 0)
      this.bytes += utf8UnitBytes(code, index === 0 ? this.lastUnit : chunk.charCodeAt(index - 1));
    if (this.bytes > this.limits.maxDocumentBytes) {
      const what = `the document is larger than the limit of ${this.limits.maxDocumentBytes} bytes`;
      throw this.error("PLAN_LIMIT", what, this.lines.positionOf(this.base + index), {
        pointer: "",
        hint: "raise maxDocumentBytes",
      });
    }
  }

  /** The blanks after the plan count in its size (`run` reads them); the first other character ends them. */
  private countBlanksAfter(chunk: string, from: number): void {
    for (let index = from; index < chunk.length && this.blanksAfter; index++) {
      const code = chunk.charCodeAt(index);
      if (!isBlank(code)) this.blanksAfter = false;
      else {
        this.count(code, chunk, index);
        if (code === 0x0a || code === 0x0d) this.lines.newLine(code, this.base + index);
      }
    }
  }

  /** A plan document's members read so far, its call list left out; `{}` until the call list starts. */
  get documentMembers(): JsonObject {
    return this.listKey === undefined ? {} : this.documentCopy();
  }

  /** The end of the text: throws when the plan is unfinished; otherwise its form, members and what came after it. */
  finish(): {
    readonly form: PlanForm;
    readonly calls: number;
    readonly members: JsonObject;
    readonly after: PlanTextAfter | undefined;
  } {
    if (this.state !== DONE || this.form === undefined) {
      const at = this.lines.positionOf(this.base);
      const what =
        this.state === PRELUDE
          ? "no JSON array or object in the text (a plan starts at a `[` or `{` that opens JSON: brackets in prose, such as [step 1] or {user}, are skipped)"
          : `the text ended ${this.inValue ? "inside a value" : "before the plan's closing bracket"}`;
      throw this.error("JSON_SYNTAX", what, at);
    }
    return { form: this.form, calls: this.calls, members: this.documentMembers, after: this.after?.result() };
  }

  /** A problem the value scanner found at `index` in `chunk`. */
  private scanProblem(step: number, chunk: string, index: number): Error {
    const at = this.lines.positionOf(this.base + index);
    if (step === TOO_DEEP) {
      // the container that is one too deep: located in the value's text so far, which ends with its bracket
      const text = this.pieces.text(chunk.slice(this.valueFrom, index + 1));
      const inside = scanNestingDepth(text, this.valueMaxDepth())?.pointer ?? "";
      return this.tooDeep(this.valuePointer() + inside, at);
    }
    return this.error("JSON_SYNTAX", "a closing bracket that does not match the open one", at);
  }

  /** PLAN_LIMIT for the container at `pointer`, nested deeper than `maxDepth` counted from the document. */
  private tooDeep(pointer: string, at: TextPosition): Error {
    const { message, hint } = depthLimitDiagnostic(pointer, this.limits);
    return this.error("PLAN_LIMIT", message, at, hint === undefined ? { pointer } : { pointer, hint });
  }

  /** The levels of nesting the value being read may hold: the limit less the depth of its container. */
  private valueMaxDepth(): number {
    return this.limits.maxDepth - (this.role === CALL && this.listKey !== undefined ? 2 : 1);
  }

  /** The pointer of the value being read (a member name has none of its own: the document's). */
  private valuePointer(): string {
    if (this.role === MEMBER) return appendPointer("", this.key);
    if (this.role === KEY) return "";
    return appendPointer(this.listKey === undefined ? "" : appendPointer("", this.listKey), this.calls);
  }

  /** Handles a character of the outline: punctuation, blanks, and the start of each value. */
  private outline(code: number, index: number): void {
    const state = this.state;
    if (state === PRELUDE) {
      if (code === OPEN_BRACKET || code === OPEN_BRACE) {
        this.pendingRoot = code;
        this.rootAt = this.lines.positionOf(this.base + index);
        // after prose, a bracket opens the plan only if what follows it can start one
        if (this.afterProse) this.state = ROOT_PENDING;
        else this.openRoot(code);
      } else this.prelude(code);
      return;
    }
    if (isBlank(code)) return;
    if (state === ROOT_PENDING) {
      if (opensPlan(this.pendingRoot, code)) {
        this.openRoot(this.pendingRoot);
        this.outline(code, index);
      } else {
        // prose such as "[step 1]" or "{user}": the plan starts at a later bracket (a ```json fence)
        this.afterProse = true;
        this.state = PRELUDE;
        this.outline(code, index);
      }
      return;
    }
    if (state === ARRAY_OPEN || state === ARRAY_NEXT) {
      if (code === CLOSE_BRACKET && state === ARRAY_OPEN) this.closeArray();
      else this.beginValue(code, index, CALL);
    } else if (state === ARRAY_AFTER) {
      if (code === COMMA) this.state = ARRAY_NEXT;
      else if (code === CLOSE_BRACKET) this.closeArray();
      else this.unexpected(code, index, '"," or "]" after a call');
    } else if (state === OBJECT_OPEN || state === OBJECT_KEY) {
      if (code === CLOSE_BRACE && state === OBJECT_OPEN) this.closeObject();
      else if (code === QUOTE) this.beginValue(code, index, KEY);
      else this.unexpected(code, index, "a member name in double quotes");
    } else if (state === OBJECT_COLON) {
      if (code === COLON) this.state = OBJECT_VALUE;
      else this.unexpected(code, index, '":" after the member name');
    } else if (state === OBJECT_VALUE) {
      this.refuseRepeatedKey(index);
      if (code === OPEN_BRACKET && this.streamsCalls()) this.openList(index);
      else this.beginValue(code, index, MEMBER);
    } else if (code === COMMA) this.state = OBJECT_KEY;
    else if (code === CLOSE_BRACE) this.closeObject();
    else this.unexpected(code, index, '"," or "}" after a member');
  }

  /**
   * Follows the text before the plan: after prose, a bracket opens the plan only if JSON follows it; a
   * fence line (three backticks, maybe an info string such as `json`) makes the next bracket the plan's.
   */
  private prelude(code: number): void {
    if (code === 0x0a || code === 0x0d) {
      if (this.fence >= 3) this.afterProse = false;
      this.fence = 0;
    } else if (!isBlank(code) && code !== BOM) {
      this.afterProse = true;
      if (code === BACKTICK && this.fence >= 0) this.fence++;
      else if (this.fence < 3) this.fence = -1;
    }
  }

  private openRoot(code: number): void {
    if (this.limits.maxDepth < 1) throw this.tooDeep("", this.rootAt);
    if (code === OPEN_BRACKET) {
      this.form = "array";
      this.state = ARRAY_OPEN;
    } else this.state = OBJECT_OPEN;
  }

  /**
   * True when the array starting now is the document's call list: its key is `plan` or `calls`, the object
   * is no call (no `_tool` before) and no call list came before (normalizePlan's rules; the rest is checked
   * when the document closes).
   */
  private streamsCalls(): boolean {
    if (!CALL_LISTS.has(this.key) || this.sawTool || this.listKey !== undefined) return false;
    const type = this.members.type;
    return (
      (type === undefined || type === "plan") && (this.key === "plan" || !Object.hasOwn(this.members, "plan"))
    );
  }

  private openList(index: number): void {
    const pointer = appendPointer("", this.key);
    if (this.limits.maxDepth < 2) throw this.tooDeep(pointer, this.lines.positionOf(this.base + index));
    this.listKey = this.key;
    // only `"type": "plan"` before a `plan` list makes the document certain (a typed `calls` list is refused)
    if (this.members.type !== "plan" || this.key !== "plan") this.held = [];
    this.form = this.key === "plan" ? "plan" : "calls";
    this.memberAt.set(this.key, this.lines.positionOf(this.base + index));
    this.state = ARRAY_OPEN;
  }

  private closeArray(): void {
    this.state = this.listKey === undefined ? DONE : OBJECT_AFTER;
  }

  private beginValue(code: number, index: number, role: number): void {
    if (code === COMMA || code === COLON || code === CLOSE_BRACKET || code === CLOSE_BRACE)
      this.unexpected(code, index, role === CALL ? "a call" : "a value");
    this.role = role;
    this.valueAt = this.lines.positionOf(this.base + index);
    if (role === CALL && this.held === undefined && this.calls === this.limits.maxCalls) this.tooManyCalls();
    if (this.value.begin(code, this.valueMaxDepth()) === TOO_DEEP)
      throw this.tooDeep(this.valuePointer(), this.valueAt);
    this.inValue = true;
    this.valueFrom = index;
  }

  /**
   * One call more than `maxCalls` begins. A held list is counted when the document closes instead (it may
   * turn out to be a call's parameter, which no limit on calls holds).
   */
  private tooManyCalls(): never {
    const what = `the plan has more calls than the limit of ${this.limits.maxCalls}`;
    const pointer = this.listKey === undefined ? "" : appendPointer("", this.listKey);
    throw this.error("PLAN_LIMIT", what, this.valueAt, {
      pointer,
      hint: "split the plan, or raise maxCalls",
    });
  }

  /** The value ended at `end` (exclusive) in `chunk`: reads its text. */
  private finishValue(chunk: string, end: number): void {
    const tail = chunk.slice(this.valueFrom, end);
    const text = this.pieces.text(tail);
    this.pieces.clear();
    this.inValue = false;
    if (this.role === KEY) this.finishKey(text);
    else if (this.role === MEMBER) {
      setOwn(this.members, this.key, this.parse(text, appendPointer("", this.key)));
      this.state = OBJECT_AFTER;
    } else this.finishCall(text);
  }

  private finishCall(text: string): void {
    const list = this.listKey === undefined ? "" : appendPointer("", this.listKey);
    (this.held ?? this.output).push(this.parse(text, appendPointer(list, this.calls)));
    this.calls++;
    this.state = ARRAY_AFTER;
  }

  private finishKey(text: string): void {
    const key = this.parse(text, "");
    if (typeof key !== "string")
      throw this.error("JSON_SYNTAX", "a member name is not a string", this.valueAt);
    if (key === "_tool") this.sawTool = true;
    this.key = key;
    this.memberAt.set(key, this.valueAt);
    this.state = OBJECT_COLON;
  }

  /** A copy of the document's members; of strict text, without the `id`/`description` written as null. */
  private documentCopy(): Record<string, JsonValue> {
    const copy: Record<string, JsonValue> = { ...this.members };
    if (this.strict) for (const key of STRICT_ABSENT) if (copy[key] === null) delete copy[key];
    return copy;
  }

  /** A member name given twice: refused at its second value, as the strict JSON reader does. */
  private refuseRepeatedKey(index: number): void {
    if (!Object.hasOwn(this.members, this.key) && this.key !== this.listKey) return;
    const what = `the key ${JSON.stringify(this.key)} occurs twice in one object`;
    const pointer = appendPointer("", this.key);
    throw this.error("JSON_SYNTAX", what, this.lines.positionOf(this.base + index), { pointer });
  }

  /** Reads a value's text as strictly as plan text is read (repeated keys, numbers beyond ±2^53, limits). */
  private parse(text: string, pointer: string): JsonValue {
    // The value's depth was checked as it streamed (ValueEndScanner): what readJsonText scans for first. Most
    // values need nothing more than JSON.parse and the quick checks; the rest get the located diagnostics.
    if (this.quick && !utf8LengthExceeds(text, this.limits.maxDocumentBytes)) {
      const quick = quickJsonValue(text, this.limits);
      if (quick !== undefined) return quick.value as JsonValue;
    }
    const read = readJsonText(text, this.limits);
    if (read.ok) return read.value;
    const first = read.diagnostics[0];
    const relative = first === undefined ? 0 : (read.sourceMap?.positionOf(first.pointer)?.offset ?? 0);
    const at = positionWithin(text, this.valueAt, relative);
    // the reader's message locates the problem in the value's own text: the position here is in the plan's
    const what = (first?.message ?? "invalid JSON").replace(
      /^invalid JSON at line \d+, column \d+: /,
      "invalid JSON: ",
    );
    const details = first?.hint === undefined ? {} : { hint: first.hint };
    throw this.error(first?.code ?? "JSON_SYNTAX", what, at, {
      pointer: pointer + (first?.pointer ?? ""),
      ...details,
    });
  }

  /** The root object closed: checks it as normalizePlan checks a document; one call is yielded now. */
  private closeObject(): void {
    this.state = DONE;
    const document: Record<string, JsonValue> = this.sawTool ? { ...this.members } : this.documentCopy();
    // a held list is checked whole (maxCalls); a streamed one was counted as it came
    if (this.listKey !== undefined) setOwn(document, this.listKey, this.held ?? []);
    const shape = normalizePlanShape(document, this.limits);
    const problem = shape.diagnostics.find((diagnostic) => diagnostic.severity === "error");
    if (problem !== undefined) {
      const name = problem.pointer.split("/")[1];
      const at = (name === undefined ? undefined : this.memberAt.get(name)) ?? this.rootAt;
      const details = problem.hint === undefined ? {} : { hint: problem.hint };
      throw this.error(problem.code, problem.message, at, { pointer: problem.pointer, ...details });
    }
    const form = shape.document?.form;
    const held = this.held ?? [];
    if (form === "call" && (this.listKey === undefined || held.length === this.calls)) {
      this.held = undefined;
      // one call (its `plan` or `calls` parameter was read as a list: it is the call's, not calls)
      if (this.listKey !== undefined) setOwn(this.members, this.listKey, held);
      this.form = "call";
      this.output.push(this.members as JsonObject);
      this.calls = 1;
    } else if (form !== this.form) {
      throw this.error("PLAN_SHAPE", "not a plan", this.rootAt);
    } else {
      this.held = undefined;
      for (const call of held) this.output.push(call);
    }
  }

  private unexpected(code: number, index: number, expected: string): never {
    const what = `expected ${expected}, found ${JSON.stringify(String.fromCharCode(code))}`;
    throw this.error("JSON_SYNTAX", what, this.lines.positionOf(this.base + index));
  }

  private error(
    code: DiagnosticCode,
    what: string,
    at: TextPosition,
    details: { readonly pointer?: string; readonly hint?: string } = {},
  ): Error {
    // calls: how many were handed out (held ones were not)
    const calls = this.calls - (this.held?.length ?? 0);
    const afterProse =
      code === "JSON_SYNTAX" &&
      calls === 0 &&
      this.afterProse &&
      this.state !== PRELUDE &&
      this.state !== ROOT_PENDING;
    const hinted = afterProse
      ? {
          ...details,
          hint: details.hint === undefined ? this.proseHint() : `${this.proseHint()}; ${details.hint}`,
        }
      : details;
    return planTextError(code, what, at, { ...hinted, calls });
  }

  /** Where the plan was taken to start, for a problem in text that came after prose. */
  private proseHint(): string {
    const { line, column } = this.rootAt;
    const bracket = this.pendingRoot === OPEN_BRACKET ? "[" : "{";
    return `the plan was read from the \`${bracket}\` at line ${line}, column ${column} (the text before it was skipped): if that bracket belongs to prose, put the plan in a \`\`\`json fence or leave brackets out of the text before it`;
  }
}
