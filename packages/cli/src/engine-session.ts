import type { Engine, RunEvent } from "obelisk";
import type { CliIo } from "./cli-io.js";
import { type LoadedTools, loadTools } from "./load-tools.js";
import { openStore, type StoreAccess } from "./open-store.js";
import { printRegistryWarnings } from "./registry-warnings.js";

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
  /** Observer of engine events (progress display). */
  readonly onEvent?: ((event: RunEvent) => void) | undefined;
}

/** Loads the tools, opens the store, creates an engine, runs `body` and always closes the engine. */
export async function withEngine<T>(
  options: SessionOptions,
  io: CliIo,
  body: (engine: Engine) => Promise<T>,
): Promise<T> {
  const tools: LoadedTools = options.tools === undefined ? [] : await loadTools(options.tools, io.cwd);
  const store = await openStore(options.store, io, options.storeAccess);
  const { createEngine } = await import("obelisk");
  const engine = createEngine({
    tools,
    store,
    ...(options.concurrency === undefined ? {} : { concurrency: options.concurrency }),
    ...(options.failFast === undefined ? {} : { failFast: options.failFast }),
    ...(options.onEvent === undefined ? {} : { onEvent: options.onEvent }),
  });
  printRegistryWarnings(io, engine.registry.warnings);
  try {
    return await body(engine);
  } finally {
    await engine.close();
  }
}
