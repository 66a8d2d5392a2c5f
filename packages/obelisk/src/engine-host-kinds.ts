import type { ToolRegistry } from "@obelisk/compiler";
import type { KindTable } from "@obelisk/core";
import type { KindScope } from "./kind-readers.js";

/** What a model-facing helper knows of an engine's host kinds: names, descriptions, readers (decision 0077). */
export interface EngineHostKinds {
  /** The host-declared kinds: the keys a run's `context` may have. */
  readonly names: ReadonlySet<string>;
  /** The engine's kind table (a host kind's `description`, its name when none was given). */
  readonly table: KindTable;
  /** Where the scoped kinds may be read (`HostKind.readers`); undefined when no kind is scoped. */
  readonly scope: KindScope | undefined;
}

/**
 * Each engine's host kinds, by its tool registry (one per engine): `planLanguagePrompt(engine)` and
 * `planLanguagePrompt(engine.registry)` find them alike, and a copy of the engine object keeps its registry.
 */
const byRegistry = new WeakMap<ToolRegistry, EngineHostKinds>();

/** Registers the host kinds of an engine `createEngine` made (not exported from the package). */
export function registerHostKinds(registry: ToolRegistry, kinds: EngineHostKinds): void {
  byRegistry.set(registry, kinds);
}

/** The host kinds of the engine whose registry this is; undefined for a registry no engine made. */
export function hostKindsOf(registry: ToolRegistry): EngineHostKinds | undefined {
  return byRegistry.get(registry);
}
