import { isName } from "./name-grammar.js";
import { ObeliskError } from "./obelisk-error.js";
import { FORBIDDEN_SEGMENTS } from "./path.js";

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

/** A kind as a host declares it: the name, the rest optional (`writable`/`engineManaged` false, `description` the name). */
export type KindDeclaration = Pick<KindInfo, "kind"> & {
  readonly [Field in Exclude<keyof KindInfo, "kind">]?: KindInfo[Field] | undefined;
};

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

/**
 * Builds the kind table from the built-ins plus host-declared extra kinds: each a name of the reference
 * grammar that is not a built-in, not declared twice and not `__proto__`/`prototype`/`constructor`, with
 * boolean `writable`/`engineManaged` (default false) and a string description (default the name). Anything
 * else throws ObeliskError USAGE.
 */
export function createKindTable(extra: readonly KindDeclaration[] = []): KindTable {
  const table = new Map<string, KindInfo>();
  for (const info of BUILT_IN_KINDS) table.set(info.kind, info);
  if (!Array.isArray(extra))
    throw new ObeliskError("USAGE", "kinds must be an array of { kind, description }");
  for (const given of extra as readonly unknown[]) {
    const info = hostKind(given);
    if (table.has(info.kind)) {
      const what = BUILT_IN_KINDS.some((k) => k.kind === info.kind) ? "a built-in kind" : "declared twice";
      throw new ObeliskError("USAGE", `kind "${info.kind}" is ${what}`);
    }
    table.set(info.kind, info);
  }
  return table;
}

/** One host-declared kind, checked (see {@link createKindTable}). */
function hostKind(given: unknown): KindInfo {
  if (typeof given !== "object" || given === null || Array.isArray(given))
    throw new ObeliskError("USAGE", "each kind must be an object { kind, description }");
  const { kind, writable, engineManaged, description } = given as Partial<Record<keyof KindInfo, unknown>>;
  if (typeof kind !== "string" || !isName(kind) || FORBIDDEN_SEGMENTS.has(kind))
    throw new ObeliskError(
      "USAGE",
      `invalid kind name ${JSON.stringify(kind ?? null)}: expected a name like "env"`,
    );
  for (const [field, value] of [
    ["writable", writable],
    ["engineManaged", engineManaged],
  ] as const) {
    if (value !== undefined && typeof value !== "boolean")
      throw new ObeliskError("USAGE", `kind "${kind}": ${field} must be true or false`);
  }
  if (description !== undefined && typeof description !== "string")
    throw new ObeliskError("USAGE", `kind "${kind}": description must be a string`);
  return {
    kind,
    writable: writable === true,
    engineManaged: engineManaged === true,
    description: description ?? kind,
  };
}

/** The default kind table (built-ins only). */
export const DEFAULT_KINDS: KindTable = createKindTable();
