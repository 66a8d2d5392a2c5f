import {
  asThreadId,
  type JsonValue,
  jsonByteSizeWithin,
  type Limits,
  ObeliskError,
  parseReference,
  plural,
  resolveLimits,
} from "@obelisk/core";
import { type Command, Option } from "commander";
import type { Engine, GetValueResult, VariableSummary } from "obelisk";
import type { CommandContext } from "../command-context.js";
import { type CommonOptions, parseCount, parsePositive, withFormat, withStore } from "../common-options.js";
import { displayBlock, displayText, jsonText } from "../display-text.js";
import { withEngine } from "../engine-session.js";
import { EXIT, type ExitCode } from "../exit-codes.js";
import { formatBytes } from "../format-bytes.js";
import { parsePageLimit, withLimits, withValueLimitHint } from "../limits-option.js";
import { withLockWait } from "../lock-wait-option.js";
import type { StoreAccess } from "../open-store.js";
import { createOutput, type Output } from "../output.js";
import { parseJsonValue } from "../parse-input.js";
import { checkRefDepth, collectRefOption, parseRefOption, parseWritableRefOption } from "../ref-option.js";
import { usageError } from "../usage-error.js";
import { threadFlags } from "../what-next.js";
import { registerStateDelete } from "./state-delete.js";
import { registerStateVacuum } from "./state-vacuum.js";

interface StateOptions extends CommonOptions {
  readonly last?: number;
  readonly ref?: string[];
  readonly value?: string;
  readonly offset?: number;
  readonly limit?: number;
  readonly budget?: number;
  /** `--limits` (`set`: the value is held to `maxValueBytes`; `set`, `get`, `unset`, `summary`: `--ref`'s depth). */
  readonly limits?: Partial<Limits>;
  /** `--lock-wait` (`set`, `unset`, `reset`, `keep`: they take the thread's lock). */
  readonly lockWait?: number;
}

type StateAction = (engine: Engine, options: StateOptions, output: Output) => Promise<void>;

/** Registers `obelisk state summary|get|set|unset|reset|keep|delete|vacuum`. */
export function registerState(program: Command, context: CommandContext): void {
  const state = program.command("state").description("inspect and edit a thread's stored variables");
  const add = (
    name: string,
    description: string,
    action: StateAction,
    storeAccess: StoreAccess = "read",
    check: (options: StateOptions) => void = () => {},
  ): Command => {
    const command = state.command(name).description(description);
    withStore(command);
    // what does not only read takes the thread's lock, and may wait for it
    if (storeAccess !== "read") withLockWait(command);
    withFormat(command);
    command.action(async (options: StateOptions) => {
      const output = createOutput(context.io, options.format);
      // what the flags alone refuse is refused before the store is opened (a refused set creates nothing)
      check(options);
      const refs = options.ref === undefined ? [] : ([] as string[]).concat(options.ref);
      checkRefDepth(refs, resolveLimits(options.limits), name === "set");
      const limits = options.limits === undefined ? {} : { limits: options.limits };
      const session = { store: options.store, storeAccess, lockWait: options.lockWait, ...limits };
      await withEngine(session, context.io, (engine) => action(engine, options, output));
      context.exit(EXIT.ok as ExitCode);
    });
    return command;
  };
  // the commands that take a --ref take --limits too: a path deeper than 32 written with raised limits is
  // read back, and taken back, with them
  withLimits(
    add("summary", "list variables, newest first, within a character budget (never the full values)", summary)
      .option("--last <n>", "only the n most recently updated variables", parsePositive)
      .option(
        "--ref <reference...>",
        "only these references (†state.x, or state.x: the † may be left out)",
        collectRefOption,
      )
      .option("--budget <chars>", "character budget (default 4000)", parsePositive),
  );
  withLimits(
    add("get", "print one stored value, or one page of an array (items), object (keys) or string", get)
      .requiredOption(
        "--ref <reference>",
        "the reference to read, e.g. †state.report (or state.report)",
        parseRefOption,
      )
      .option("--offset <n>", "first item, key or character of the page", parseCount)
      .option("--limit <n>", "items, keys or characters in the page", parsePageLimit),
  );
  // `set` creates the store: an approval may be given before the plan's first run
  const setCommand = add(
    "set",
    "write one value by reference (how approvals under †state.approvals. are given)",
    set,
    "create",
    setValue,
  )
    .requiredOption(
      "--ref <reference>",
      "the reference to write, e.g. †state.approvals.refund (or state.approvals.refund)",
      parseWritableRefOption,
    )
    .requiredOption("--value <json>", "the value, as JSON");
  withLimits(setCommand);
  withLimits(
    add(
      "unset",
      "remove one value by reference (how an approval under †state.approvals. is taken back)",
      unset,
      "edit",
      singleRef,
    ).requiredOption(
      "--ref <reference>",
      "the reference to remove, e.g. †state.approvals.refund (or state.approvals.refund)",
      parseWritableRefOption,
    ),
  );
  add(
    "reset",
    "delete the thread's variables and stored call outputs and forget its completed calls (a re-sent plan runs again); run history stays",
    reset,
    "edit",
  );
  add("keep", "keep only the n most recently updated variables", keep, "edit").addOption(
    new Option("--last <n>", "how many variables to keep").argParser(parseCount).makeOptionMandatory(),
  );
  registerStateDelete(state, context);
  registerStateVacuum(state, context);
}

async function summary(engine: Engine, options: StateOptions, output: Output): Promise<void> {
  const common = {
    ...(options.last === undefined ? {} : { lastN: options.last }),
    ...(options.ref === undefined ? {} : { refs: options.ref }),
    ...(options.budget === undefined ? {} : { budgetChars: options.budget }),
  };
  if (output.format === "json") {
    output.json(await engine.summarize(options.thread, { ...common, format: "json" }));
    return;
  }
  const summary = await engine.summarize(options.thread, { ...common, format: "markdown" });
  if (summary.entries.length === 0) {
    for (const line of emptySummaryLines(options, summary)) output.line(output.colors.dim(line));
    return;
  }
  const bytes = summary.entries.reduce((sum, entry) => sum + entry.bytes, 0);
  const omitted = summary.omitted > 0 ? `, ${summary.omitted} more left out to stay within budget` : "";
  output.line(
    output.colors.bold(
      `Thread ${displayText(options.thread)}: ${plural(summary.entries.length, "variable")}, newest first${omitted}. ` +
        `${summary.text.length} characters describe ${formatBytes(bytes)} of data.`,
    ),
  );
  output.line();
  // descriptions and references come from plans: escaped, the summary's own lines kept
  output.line(displayBlock(summary.text.trimEnd()));
  output.line();
  output.line(
    output.colors.dim(
      `read a value (or one page of it): ${output.command} state get --ref <reference> [--offset N --limit N] ${threadFlags(options.thread, options.store)}`,
    ),
  );
}

/** What an empty text summary says: every variable left out for the budget, references not stored, or none. */
function emptySummaryLines(options: StateOptions, summary: VariableSummary): string[] {
  const lines: string[] = [];
  if (summary.omitted > 0) {
    const budget = options.budget === undefined ? "the default budget" : `${options.budget} characters`;
    lines.push(
      `thread ${displayText(options.thread)}: ${plural(summary.omitted, "variable")} left out to stay within ${budget} ` +
        "(raise --budget, or narrow with --last or --ref)",
    );
  }
  if (summary.notFound.length > 0)
    lines.push(
      `not stored on thread ${displayText(options.thread)} (missing or evicted): ${displayText(summary.notFound.join(", "))}`,
    );
  if (lines.length === 0) lines.push(`thread ${displayText(options.thread)} holds no variables`);
  return lines;
}

async function get(engine: Engine, options: StateOptions, output: Output): Promise<void> {
  const ref = singleRef(options);
  const page = {
    ...(options.offset === undefined ? {} : { offset: options.offset }),
    ...(options.limit === undefined ? {} : { limit: options.limit }),
  };
  const result = await engine.get(options.thread, ref, page);
  if (!result.found) {
    // imported here, not at start-up: registering the commands does not load the engine
    const { nearStoredReferences } = await import("obelisk");
    const near = await nearStoredReferences(engine, options.thread, ref);
    throw new ObeliskError(
      "REF_UNRESOLVED",
      `${ref} is not stored on thread ${displayText(options.thread)}`,
      {
        hint:
          near.length === 0
            ? `${output.command} state summary lists what the thread holds`
            : `did you mean ${near.map((name) => displayText(name)).join(", ")}? (${output.command} state summary lists what the thread holds)`,
      },
    );
  }
  output.json(result);
  if (output.format === "text") printGot(output, ref, result, options.offset);
}

/**
 * Prints a value, or a page of one (`--offset/--limit` on a number, boolean or null is USAGE): a string as
 * its lines, other values as JSON, control characters escaped either way (`--format json` has it exact).
 */
function printGot(
  output: Output,
  ref: string,
  result: GetValueResult & { found: true },
  asked: number | undefined,
): void {
  if ("value" in result) {
    output.line(typeof result.value === "string" ? displayBlock(result.value) : jsonText(result.value));
    return;
  }
  const page = result.items ?? result.entries ?? result.text;
  const unit = result.items !== undefined ? "items" : result.entries !== undefined ? "keys" : "characters";
  if (result.limit === 0) {
    // an --offset past the end is answered at the end (offset = total): say so, not "no items from 10000"
    const one = unit.slice(0, -1);
    const range = result.total === 0 ? "" : ` (--offset 0 to ${result.total - 1})`;
    output.line(
      output.colors.dim(
        result.offset >= result.total
          ? `${ref}: --offset ${asked ?? result.offset} is past the end: it holds ${plural(result.total, one)}${range}`
          : `${ref}: no ${unit} from ${result.offset} (${result.total} in all)`,
      ),
    );
    return;
  }
  output.line(typeof page === "string" ? displayBlock(page) : jsonText(page));
  const last = result.offset + result.limit - 1;
  output.line(output.colors.dim(`${ref}: ${unit} ${result.offset}–${last} of ${result.total}`));
}

/**
 * The `--value` of `state set`, parsed: USAGE when it is missing, not JSON, or larger than `maxValueBytes`
 * (as the engine refuses it, but before the store is opened: a refused set creates no store file).
 */
function setValue(options: StateOptions): JsonValue {
  const ref = singleRef(options);
  if (options.value === undefined) throw usageError("state set needs --value <json>");
  const value = parseJsonValue(options.value, "--value");
  const limits = resolveLimits(options.limits);
  if (jsonByteSizeWithin(value, limits.maxValueBytes) === undefined) {
    const tooLarge = usageError(
      `${ref}: the value is larger than ${limits.maxValueBytes} bytes of JSON (limits.maxValueBytes)`,
    );
    throw withValueLimitHint(tooLarge, value, limits);
  }
  return value;
}

async function set(engine: Engine, options: StateOptions, output: Output): Promise<void> {
  const ref = singleRef(options);
  const value = setValue(options);
  try {
    await engine.set(options.thread, ref, value);
  } catch (error) {
    throw withValueLimitHint(error, value, resolveLimits(options.limits));
  }
  output.json({ ok: true, threadId: options.thread, ref, value });
  output.line(`${output.colors.green("✓")} wrote ${ref} on thread ${displayText(options.thread)}`);
}

/** `unset --ref`: removes what the reference holds; a path that holds nothing is no error (nothing to remove). */
async function unset(engine: Engine, options: StateOptions, output: Output): Promise<void> {
  const ref = singleRef(options);
  const thread = displayText(options.thread);
  // a thread the store does not hold has nothing to remove: not even its lock is taken (the file stays as it was)
  if ((await engine.store.getThread(asThreadId(options.thread))) === undefined) {
    output.json({ ok: true, threadId: options.thread, ref, removed: false, variables: [] });
    output.line(output.colors.dim(`thread ${thread} does not exist: nothing to remove`));
    return;
  }
  const { removed, variables } = await engine.unset(options.thread, ref);
  output.json({ ok: true, threadId: options.thread, ref, removed, variables });
  if (!removed) {
    output.line(output.colors.dim(`${ref} holds nothing on thread ${thread}: nothing to remove`));
    return;
  }
  // at a container only writes below it created, the variables below it went (the container with them)
  const parsed = parseReference(ref);
  const exact = variables.length === 1 && parsed.ok && variables[0] === parsed.value.text;
  const below = exact
    ? ""
    : `: ${plural(variables.length, "variable")} (${displayText(variables.join(", "))})`;
  output.line(`${output.colors.green("✓")} removed ${ref} from thread ${thread}${below}`);
}

async function reset(engine: Engine, options: StateOptions, output: Output): Promise<void> {
  // a thread the store does not hold has nothing to reset: it is not created
  const exists = (await engine.store.getThread(asThreadId(options.thread))) !== undefined;
  if (exists) await engine.reset(options.thread);
  output.json({ ok: true, threadId: options.thread });
  output.line(
    exists
      ? `${output.colors.green("✓")} thread ${displayText(options.thread)} reset`
      : output.colors.dim(`thread ${displayText(options.thread)} does not exist: nothing to reset`),
  );
}

/** `keep --last N`: reports the variables actually kept (fewer than N when the thread holds fewer). */
async function keep(engine: Engine, options: StateOptions, output: Output): Promise<void> {
  const n = options.last ?? 0;
  const thread = asThreadId(options.thread);
  if ((await engine.store.getThread(thread)) === undefined) {
    output.json({ ok: true, threadId: options.thread, kept: 0 });
    output.line(output.colors.dim(`thread ${displayText(options.thread)} does not exist: nothing to keep`));
    return;
  }
  // counted under the thread's lock by the engine: a run elsewhere cannot skew them
  const { kept, evicted } = await engine.keepLastN(options.thread, n);
  output.json({ ok: true, threadId: options.thread, kept });
  output.line(
    `${output.colors.green("✓")} thread ${displayText(options.thread)}: ${keptText(kept, evicted, n)}`,
  );
}

/** What `keep --last n` did: `kept` variables kept, `evicted` evicted. */
function keptText(kept: number, evicted: number, n: number): string {
  if (kept + evicted === 0) return "holds no variables, nothing to keep";
  if (evicted <= 0) return `kept all ${plural(kept, "variable")}, nothing to evict (--last ${n})`;
  if (kept === 0) return `evicted all ${plural(evicted, "variable")} (--last ${n})`;
  const newest =
    kept === 1 ? "the most recently updated variable" : `the ${kept} most recently updated variables`;
  return `kept ${newest}, evicted ${evicted}`;
}

function singleRef(options: StateOptions): string {
  const ref = Array.isArray(options.ref) ? options.ref[0] : (options.ref as string | undefined);
  if (ref === undefined) throw usageError("missing --ref <reference>");
  return ref;
}
