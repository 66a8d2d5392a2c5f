import type { Diagnostic } from "./diagnostic.js";
import type { JsonObject, JsonValue } from "./json-value.js";
import type { LimitOverrides } from "./limits.js";
import { resolveLimits } from "./limits.js";
import { ObeliskError } from "./obelisk-error.js";
import type { PlanForm } from "./plan-document.js";
import { PlanTextReader } from "./plan-text-reader.js";
import { type PlanTextAfter, secondPlanWarnings } from "./text-after-plan.js";

export type { PlanTextErrorData } from "./plan-text-position.js";
export type { PlanTextAfter, PlanTextExcerpt } from "./text-after-plan.js";

/** Options of {@link createPlanTextStream} and {@link callsFromText}. */
export interface PlanTextStreamOptions {
  /**
   * Limits the text is read under, counted on the whole document as `run` counts them on the same text:
   * `maxDocumentBytes`, `maxDepth` (from the root), `maxCalls` and `maxStringLength` (defaults:
   * {@link DEFAULT_LIMITS}). Pass the engine's (`engine.limits`) to refuse what its `run` would.
   */
  readonly limits?: LimitOverrides;
  /**
   * The text follows the strict plan schema (`strictPlanJsonSchema`, OpenAI strict structured outputs),
   * where every key is written and `null` means absent: the document's `id` and `description` that are
   * `null` are left out instead of refused. Calls are handed out as written: clean each with
   * `fromStrictPlan(call, registry)` before `add`.
   */
  readonly strict?: boolean;
  /**
   * Called by `end()` with each of its `warnings` (`STREAM_SECOND_PLAN`: a second plan after the first was
   * skipped), for a `for await` over {@link callsFromText}, which drops the generator's return value.
   */
  readonly onWarning?: (warning: Diagnostic) => void;
}

/** What the end of the text tells: the plan's form and the document's other members. */
export interface PlanTextEnd {
  /** The plan's form (SPEC §5): `"array"`, `"plan"`, `"calls"` or `"call"`. */
  readonly form: PlanForm;
  /** How many calls were yielded. */
  readonly calls: number;
  /** A plan document's members other than its calls (`id`, `description`, `inputSchema`, …); `{}` for the other forms. */
  readonly members: JsonObject;
  /**
   * The text after the plan, which was not read: present when more than blanks and the plan's closing fence
   * line came after its closing bracket (a closing remark, another plan). Where it starts, its length, an
   * excerpt, and `secondPlan` when a line of it starts another plan.
   */
  readonly after?: PlanTextAfter;
  /**
   * Warnings about the text, `[]` for one plan: `STREAM_SECOND_PLAN` (pointer `""`) when `after` holds a
   * second plan, whose calls the stream skipped. Give them to the model with `add`'s warnings.
   */
  readonly warnings: readonly Diagnostic[];
}

/** Reads a plan's JSON text as it arrives and hands out each call as soon as its text is complete. */
export interface PlanTextStream {
  /**
   * Reads the next chunk; returns the calls it completed, in plan order, each as `JSON.parse` reads it.
   * A chunk holding a problem throws it (ObeliskError: JSON_SYNTAX, PLAN_SHAPE or PLAN_LIMIT with
   * `data: PlanTextErrorData`); when calls before the problem completed in that same chunk, they are
   * returned and the problem is thrown by the next `push` or `end`.
   */
  push(chunk: string): JsonValue[];
  /**
   * A plan document's members read so far, its call list left out (`{}` for the other forms): every member
   * before the list once its first call is yielded, e.g. the `inputSchema` to give `engine.open()`.
   */
  readonly members: JsonObject;
  /**
   * No more text: throws when the plan is unfinished (or a problem is pending); else its form, members, what
   * came after it and the warnings (each also given to `onWarning`, once).
   */
  end(): PlanTextEnd;
}

/**
 * Creates an incremental reader of a plan's JSON text (an LLM's output, token by token). Text before the
 * first `[` or `{` (a ```json fence, prose) is skipped, and so is everything after the plan's closing
 * bracket: `end()` tells what that held (`after`) and warns of a second plan (`STREAM_SECOND_PLAN`). Accepts every form `run` does (SPEC §5): an array of calls, `{ "type": "plan", "plan": [...] }`
 * (the list may come after other members), `{ "calls": [...] }` and one call object (yielded when it
 * closes). Linear in the text; it keeps only the text of the value being read.
 */
export function createPlanTextStream(options: PlanTextStreamOptions = {}): PlanTextStream {
  const { onWarning } = options;
  if (onWarning !== undefined && typeof onWarning !== "function")
    throw new ObeliskError("USAGE", "onWarning must be a function", {
      hint: "pass (warning) => warnings.push(warning), or leave it out and read end().warnings",
    });
  const reader = new PlanTextReader(resolveLimits(options.limits), options.strict === true);
  let failure: unknown;
  let ended: PlanTextEnd | undefined;
  return {
    get members() {
      return reader.documentMembers;
    },
    push(chunk) {
      if (failure !== undefined) throw failure;
      if (ended !== undefined)
        throw new ObeliskError("USAGE", "the plan text stream has ended: push comes before end");
      if (typeof chunk !== "string") throw notText(chunk);
      const calls: JsonValue[] = [];
      try {
        reader.read(chunk, calls);
      } catch (error) {
        failure = error;
        if (calls.length === 0) throw error;
      }
      return calls;
    },
    end() {
      if (failure !== undefined) throw failure;
      if (ended !== undefined) return ended;
      try {
        ended = endOf(reader.finish());
      } catch (error) {
        failure = error;
        throw error;
      }
      for (const warning of ended.warnings) onWarning?.(warning);
      return ended;
    },
  };
}

/** The end as the reader tells it, with the warnings its text after the plan calls for. */
function endOf(
  read: Omit<PlanTextEnd, "warnings" | "after"> & { readonly after: PlanTextAfter | undefined },
): PlanTextEnd {
  const { after, ...end } = read;
  return { ...end, ...(after === undefined ? {} : { after }), warnings: secondPlanWarnings(after) };
}

/** USAGE for a chunk that is not text, with how to get the text out of what was given. */
function notText(chunk: unknown): ObeliskError {
  const bytes = ArrayBuffer.isView(chunk) || chunk instanceof ArrayBuffer;
  const what = chunk === null ? "null" : bytes ? "bytes" : typeof chunk;
  const hint = bytes
    ? "decode the bytes first: new TextDecoder().decode(chunk, { stream: true }) per chunk, or pipe the body through a TextDecoderStream"
    : typeof chunk === "object"
      ? "pass the text of each chunk (a provider's streamed delta text), not the chunk object"
      : "pass each chunk of the model's text as a string";
  return new ObeliskError("USAGE", `a plan text chunk must be a string, not ${what}`, { hint });
}

/**
 * Yields each call of a plan whose JSON text arrives in `chunks` (an LLM's streamed output), as soon as the
 * call's text is complete; returns what {@link PlanTextStream.end} tells. Problems are thrown after the
 * calls before them were yielded. Decode bytes first (`TextDecoder` with `{ stream: true }`).
 */
export async function* callsFromText(
  chunks: AsyncIterable<string> | Iterable<string>,
  options: PlanTextStreamOptions = {},
): AsyncGenerator<JsonValue, PlanTextEnd, undefined> {
  const given: unknown = chunks;
  if (
    typeof given !== "object" ||
    given === null ||
    !(Symbol.asyncIterator in given || Symbol.iterator in given)
  )
    throw new ObeliskError(
      "USAGE",
      "callsFromText needs the text's chunks: an iterable or async iterable of strings",
      {
        hint: "pass the model's token stream (an async iterable of strings), or [text] for one string",
      },
    );
  const stream = createPlanTextStream(options);
  for await (const chunk of chunks) {
    for (const call of stream.push(chunk)) yield call;
  }
  return stream.end();
}
