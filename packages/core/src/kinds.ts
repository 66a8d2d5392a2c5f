/** What Obelisk knows about one kind of context data. */
export interface KindInfo {
  /** The kind's name as written after `†`. */
  readonly kind: string;
  /** Whether output paths may write into it. */
  readonly writable: boolean;
  /** Whether the engine manages it (the host may not supply it). */
  readonly engineManaged: boolean;
  /** Short human description, used in hints and docs. */
  readonly description: string;
}

/** The built-in kinds (SPEC §1). Hosts may declare extra kinds on top of these. */
export const BUILT_IN_KINDS: readonly KindInfo[] = [
  { kind: "input", writable: false, engineManaged: false, description: "the run's input (read-only)" },
  { kind: "state", writable: true, engineManaged: false, description: "the thread's persisted state" },
  {
    kind: "calls",
    writable: false,
    engineManaged: true,
    description: "outputs of calls without _outputPath, by call id",
  },
];

/** A lookup table of kinds by name. */
export type KindTable = ReadonlyMap<string, KindInfo>;

/** Builds the kind table from the built-ins plus any host-declared extra kinds (extras cannot redefine built-ins). */
export function createKindTable(extra: readonly KindInfo[] = []): KindTable {
  const table = new Map<string, KindInfo>();
  for (const info of BUILT_IN_KINDS) table.set(info.kind, info);
  for (const info of extra) if (!table.has(info.kind)) table.set(info.kind, info);
  return table;
}

/** The default kind table (built-ins only). */
export const DEFAULT_KINDS: KindTable = createKindTable();
