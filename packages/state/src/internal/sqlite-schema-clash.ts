import BetterSqlite3, { type Database } from "better-sqlite3";
import { MIGRATED_COLUMNS, SCHEMA_INDEXES, SCHEMA_TABLES, type SchemaObject } from "./sqlite-tables.js";

/** An object of a database that has the name of one of the store's tables or indexes but not its shape. */
export interface SchemaClash {
  /** Its name (the store's table or index of that name). */
  readonly name: string;
  /** What differs, as a phrase: `its table threads has other columns than the store's`. */
  readonly description: string;
}

interface Column {
  readonly name: string;
  readonly type: string;
  readonly notnull: number;
  readonly pk: number;
}

const columnKey = (column: Column): string =>
  `${column.name}\u0000${column.type.toUpperCase()}\u0000${column.notnull}\u0000${column.pk}`;
const columnsOf = (db: Database, table: string): Column[] =>
  db.prepare("SELECT name, type, \"notnull\", pk FROM pragma_table_info(?, 'main')").all(table) as Column[];

const PLURAL = { table: "tables", index: "indexes" } as const;

let expected: ReadonlyMap<string, readonly Column[]> | undefined;

/** The columns of each store table, as SQLite reads its definition (an in-memory database, made once). */
function expectedColumns(): ReadonlyMap<string, readonly Column[]> {
  if (expected !== undefined) return expected;
  const reference = new BetterSqlite3(":memory:");
  try {
    for (const table of SCHEMA_TABLES) reference.exec(table.definition);
    expected = new Map(SCHEMA_TABLES.map((table) => [table.name, columnsOf(reference, table.name)]));
    return expected;
  } finally {
    reference.close();
  }
}

/** True when `actual` are the columns of the store's `table`, or those of an older version of it. */
function sameColumns(table: string, actual: readonly Column[]): boolean {
  const wanted = expectedColumns().get(table) ?? [];
  const optional = new Set(MIGRATED_COLUMNS[table] ?? []);
  const have = new Set(actual.map(columnKey));
  const want = new Set(wanted.map(columnKey));
  return (
    actual.every((column) => want.has(columnKey(column))) &&
    wanted.every((column) => have.has(columnKey(column)) || optional.has(column.name))
  );
}

/**
 * The first object of `db` (read only, nothing written) that would keep the store from working beside it:
 * a table named like one of the store's with other columns (names, declared types, NOT NULL, primary key),
 * or a view or index named like a store table (they share its names; triggers have their own), or an index named like one of the store's on
 * another table. `CREATE … IF NOT EXISTS` would silently keep such an object, and the store would then fail
 * later, or write into another program's table. Undefined when there is none.
 */
export function findSchemaClash(db: Database): SchemaClash | undefined {
  const objects = db
    .prepare(
      "SELECT type, name, tbl_name AS tableName FROM main.sqlite_master WHERE type IN ('table', 'view', 'index')",
    )
    .all() as {
    type: string;
    name: string;
    tableName: string;
  }[];
  const ours = new Map<string, { readonly type: "table" | "index"; readonly object: SchemaObject }>([
    ...SCHEMA_TABLES.map((object) => [object.name.toLowerCase(), { type: "table", object }] as const),
    ...SCHEMA_INDEXES.map((object) => [object.name.toLowerCase(), { type: "index", object }] as const),
  ]);
  for (const { type, name, tableName } of objects) {
    const mine = ours.get(name.toLowerCase());
    if (mine === undefined) continue;
    if (type !== mine.type) {
      return {
        name,
        description: `its ${type} ${name} has the name of one of the store's ${PLURAL[mine.type]}`,
      };
    }
    if (type === "index" && tableName.toLowerCase() !== mine.object.table) {
      return {
        name,
        description: `its index ${name} is on ${tableName}, the store's index of that name on ${mine.object.table}`,
      };
    }
    if (type === "table" && !sameColumns(mine.object.name, columnsOf(db, name))) {
      return {
        name,
        description: `its table ${name} has other columns than the store's ${mine.object.name} table`,
      };
    }
  }
  return undefined;
}
