import { type Limits, ObeliskError } from "@obelisk/core";
import type { Engine, RunEvent } from "obelisk";
import { cliCommand } from "./cli-command.js";
import type { CliIo } from "./cli-io.js";
import { stopIfEscaped } from "./command-stop.js";
import { loadTools, type ToolsModule } from "./load-tools.js";
import { loadStoreModule, openStore, type StoreAccess } from "./open-store.js";
import { printRegistryWarnings } from "./registry-warnings.js";
import { type GivenRetention, retentionOf } from "./retention-option.js";
import { explainThreadBusy } from "./thread-busy.js";

/** What a command needs to open an engine. */
export interface SessionOptions {
  /** `--tools` module, when the command uses tools. */
  readonly tools?: string | undefined;
  /** `--store` url. */
  readonly store: string;
  /** What the command does with the store (whether a missing store file is created). */
  readonly storeAccess: StoreAccess;
  /** `--concurrency`. */
  readonly concurrency?: number | undefined;
  /** `--fail-fast`. */
  readonly failFast?: boolean | undefined;
  /** `--limits`. */
  readonly limits?: Partial<Limits> | undefined;
  /** `--retention` (over `OBELISK_RETENTION`): the store's retention (decision 0109). */
  readonly retention?: GivenRetention | undefined;
  /** `--lock-wait`: how long a command that takes the thread's lock waits for it (the engine's `lockWaitMs`). */
  readonly lockWait?: number | undefined;
  /** Observer of engine events (progress display). */
  readonly onEvent?: ((event: RunEvent) => void) | undefined;
}

/**
 * Loads the tools, opens the store, creates an engine, runs `body` and always closes the engine.
 *
 * With `check`, the command may be refused before the store is opened as `storeAccess` says (which may
 * create the file, its directory, or a thread row): `check` first runs on an engine over the store opened
 * read-only (a missing or empty file is an empty store), and an answer other than undefined is the
 * command's, with nothing created or changed (SPEC §11: bad input never changes state). Whatever refuses
 * that open (tools the engine refuses, a file that is no store) refuses the command. A store of an older
 * version, which only writing brings up to date, cannot be opened read-only: `check` then runs on the
 * store opened as `storeAccess` says, before `body` (the file exists already; it is brought up to date,
 * and nothing else is written when the command is refused). A THREAD_BUSY thrown by `body` names the run
 * that holds the thread and how to wait for it (see `explainThreadBusy`).
 */
export async function withEngine<T>(
  options: SessionOptions,
  io: CliIo,
  body: (engine: Engine) => Promise<T>,
  check?: (engine: Engine) => Promise<T | undefined>,
): Promise<T> {
  // The engine is loaded before the tools: a TypeScript tools module registers tsx's module hooks, which
  // run on a loader thread; loaded after them, each of the engine's ~270 modules would pass through them
  // (validate with examples/greeting/tools.ts: 2.1 CPU-seconds instead of 1.5); so is the store's module.
  // a malformed OBELISK_RETENTION is refused before anything is loaded or opened
  const retention = retentionOf(io, options.retention);
  const { createEngine } = await import("obelisk");
  await loadStoreModule(options.store);
  const { tools, implementations }: ToolsModule =
    options.tools === undefined ? { tools: [] } : await loadTools(options.tools, io);
  stopIfEscaped();
  let warned = false;
  const open = async (access: StoreAccess): Promise<Engine> => {
    const store = await openStore(options.store, io, access, retention);
    const engine = namingToolsModule(options.tools, () =>
      createEngine({
        tools,
        ...(implementations === undefined ? {} : { implementations }),
        store,
        ...(options.concurrency === undefined ? {} : { concurrency: options.concurrency }),
        ...(options.failFast === undefined ? {} : { failFast: options.failFast }),
        ...(options.limits === undefined ? {} : { limits: options.limits }),
        ...(options.lockWait === undefined ? {} : { lockWaitMs: options.lockWait }),
        ...(options.onEvent === undefined ? {} : { onEvent: options.onEvent }),
      }),
    );
    if (!warned) printRegistryWarnings(io, engine.registry.warnings);
    warned = true;
    return engine;
  };
  let checkLater = false;
  if (check !== undefined) {
    const checking = await open("check").catch((error: unknown) => {
      if (!onlyWritingReads(error)) throw error;
      checkLater = true;
      return undefined;
    });
    if (checking !== undefined) {
      try {
        const refused = await check(checking);
        if (refused !== undefined) return refused;
      } finally {
        await checking.close();
      }
    }
  }
  const engine = await open(options.storeAccess);
  try {
    stopIfEscaped();
    if (checkLater && check !== undefined) {
      const refused = await check(engine);
      if (refused !== undefined) return refused;
    }
    return await body(engine);
  } catch (error) {
    throw await explainThreadBusy(error, engine, options.store, cliCommand(io.env));
  } finally {
    await engine.close();
  }
}

/** True for the refusal of a store read-only that only writing can bring up to date (an older version). */
function onlyWritingReads(error: unknown): boolean {
  const cause = ObeliskError.is(error) && error.cause !== undefined ? error.cause : error;
  return ObeliskError.is(cause) && (cause.data as { reason?: unknown } | undefined)?.reason === "readonly";
}

/**
 * `createEngine`, whose refusal of a tool's definition (`tool "echo": retry must be an object`, `invalid tool
 * name …`, a schema that is not JSON Schema) names the tools module it came from (review s41 r2 #11): the
 * message began with the tool alone.
 */
function namingToolsModule(file: string | undefined, create: () => Engine): Engine {
  try {
    return create();
  } catch (error) {
    if (file === undefined || !ObeliskError.is(error, "USAGE") || !/\btools?\b/.test(error.message))
      throw error;
    throw new ObeliskError("USAGE", `tools module ${file}: ${error.message}`, {
      cause: error,
      ...(error.hint === undefined ? {} : { hint: error.hint }),
      ...(error.data === undefined ? {} : { data: error.data }),
    });
  }
}
