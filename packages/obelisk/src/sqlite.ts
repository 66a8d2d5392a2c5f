export type { SqliteStoreOptions } from "@obelisk/state/sqlite";
export { createSqliteStore } from "@obelisk/state/sqlite";
