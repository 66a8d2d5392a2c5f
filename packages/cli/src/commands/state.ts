import { resolveLimits } from "@obelisk/core";
import { type Command, Option } from "commander";
import type { Engine } from "obelisk";
import type { CommandContext } from "../command-context.js";
import { parseCount, parsePositive, withFormat, withStore } from "../common-options.js";
import { withEngine } from "../engine-session.js";
import { EXIT, type ExitCode } from "../exit-codes.js";
import { parsePageLimit, withLimits } from "../limits-option.js";
import { withLockWait } from "../lock-wait-option.js";
import type { StoreAccess } from "../open-store.js";
import { createOutput, type Output } from "../output.js";
import { checkRefDepth, collectRefOption, parseRefOption, parseWritableRefOption } from "../ref-option.js";
import { registerStateDelete } from "./state-delete.js";
import { stateGet } from "./state-get.js";
import { stateKeep } from "./state-keep.js";
import { type StateOptions, singleRef } from "./state-options.js";
import { stateReset } from "./state-reset.js";
import { setValue, stateSet } from "./state-set.js";
import { stateSummary } from "./state-summary.js";
import { stateUnset } from "./state-unset.js";
import { registerStateVacuum } from "./state-vacuum.js";

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
      const session = {
        store: options.store,
        retention: options.retention,
        storeAccess,
        lockWait: options.lockWait,
        ...limits,
      };
      await withEngine(session, context.io, (engine) => action(engine, options, output));
      context.exit(EXIT.ok as ExitCode);
    });
    return command;
  };
  // the commands that take a --ref take --limits too: a path deeper than 32 written with raised limits is
  // read back, and taken back, with them
  withLimits(
    add(
      "summary",
      "list variables, newest first, within a character budget (never the full values)",
      stateSummary,
    )
      .option("--last <n>", "only the n most recently updated variables", parsePositive)
      .option(
        "--ref <reference...>",
        "only these references (†state.x, or state.x: the † may be left out)",
        collectRefOption,
      )
      .option("--budget <chars>", "character budget (default 4000)", parsePositive),
  );
  withLimits(
    add("get", "print one stored value, or one page of an array (items), object (keys) or string", stateGet)
      .requiredOption(
        "--ref <reference>",
        "the reference to read, e.g. †state.report (or state.report) (required)",
        parseRefOption,
      )
      .option("--offset <n>", "first item, key or character of the page", parseCount)
      .option("--limit <n>", "items, keys or characters in the page", parsePageLimit),
  );
  // `set` creates the store: an approval may be given before the plan's first run
  const setCommand = add(
    "set",
    "write one value by reference (how approvals under †state.approvals. are given)",
    stateSet,
    "create",
    setValue,
  )
    .requiredOption(
      "--ref <reference>",
      "the reference to write, e.g. †state.approvals.refund (or state.approvals.refund) (required)",
      parseWritableRefOption,
    )
    .requiredOption("--value <json>", "the value, as JSON (required)");
  withLimits(setCommand);
  withLimits(
    add(
      "unset",
      "remove one value by reference (how an approval under †state.approvals. is taken back)",
      stateUnset,
      "edit",
      singleRef,
    ).requiredOption(
      "--ref <reference>",
      "the reference to remove, e.g. †state.approvals.refund (or state.approvals.refund) (required)",
      parseWritableRefOption,
    ),
  );
  add(
    "reset",
    "delete the thread's variables and stored call outputs and forget its completed calls (a re-sent plan runs again); run history stays",
    stateReset,
    "edit",
  );
  add("keep", "keep only the n most recently updated variables", stateKeep, "edit").addOption(
    new Option("--last <n>", "how many variables to keep (required)")
      .argParser(parseCount)
      .makeOptionMandatory(),
  );
  registerStateDelete(state, context);
  registerStateVacuum(state, context);
}
