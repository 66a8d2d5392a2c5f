export type { SqliteLockOptions } from "./internal/sqlite-lock.js";
export type { SqliteStoreOptions } from "./sqlite-store.js";
export { createSqliteStore } from "./sqlite-store.js";
