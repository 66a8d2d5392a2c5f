/**
 * The StateStore conformance suite, for the authors of other backends: run
 * `describeStoreConformance("postgres", (options) => createPostgresStore(…, options))` in a vitest suite, and
 * the backend is held to every case the memory and SQLite stores pass. Needs vitest (a peer dependency).
 */

export type { MakeStore } from "./commit-fixtures.js";
export { describeStoreConformance, type OpenStore } from "./describe-store-conformance.js";
