export type {
  Clock,
  RetentionPolicy,
  StateStore,
  StoreOptions,
} from "@obelisk/state";
export type { SqliteLockOptions, SqliteStoreOptions } from "@obelisk/state/sqlite";
export { createSqliteStore } from "@obelisk/state/sqlite";
