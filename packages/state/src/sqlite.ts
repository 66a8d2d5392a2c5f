export type { SqliteStoreOptions } from "./sqlite-store.js";
export { createSqliteStore } from "./sqlite-store.js";
export type { SqliteLockOptions } from "./sqlite-store-options.js";
