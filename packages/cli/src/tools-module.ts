import type { ToolDefinition } from "@obelisk/compiler";

/** Tools as a tools module exports them: an array, or an object by name. */
export type LoadedTools = readonly ToolDefinition[] | Readonly<Record<string, ToolDefinition>>;

/** A tool's implementation, as `createEngine`'s `implementations` takes it. */
export type ToolRun = NonNullable<ToolDefinition["run"]>;

/**
 * What a tools module gives: its tools (the default export) and, when it exports `implementations`, the
 * implementations of its tools by name (SPEC §9: for tools in the spec's form, given without `run`).
 */
export interface ToolsModule {
  /** The default export, or (an ES module without one) its named exports that are tools. */
  readonly tools: LoadedTools;
  /** The `implementations` export (checked to be an object; its values and keys are the registry's to check). */
  readonly implementations?: Readonly<Record<string, ToolRun>>;
}
