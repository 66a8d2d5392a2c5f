export { checkHistoryPolicy, HISTORY_BATCH } from "./internal/prune-history.js";
export { runSummary } from "./internal/run-summary.js";
export type { LockHolder } from "./lock-holder.js";
export { createMemoryStore } from "./memory-store.js";
export { RETENTION_FIELDS } from "./retention-fields.js";
export type { Clock, StoreOptions } from "./store-options.js";
export {
  DEFAULT_MAX_TOMBSTONES,
  DEFAULT_RECORD_PARAMS_BYTES,
  DEFAULT_RECORD_RESULT_BYTES,
  DEFAULT_RETENTION,
} from "./store-options.js";
export type {
  Awaitable,
  CallCommit,
  CallRecord,
  CallStatus,
  CommitResult,
  DeleteThreadOptions,
  FinalPlan,
  FinishRunOptions,
  HistoryPolicy,
  NumberedCommitOptions,
  NumberedCommitResult,
  PruneRunsOptions,
  PruneRunsResult,
  RecordedError,
  RemovalResult,
  RemovalTarget,
  RetentionPolicy,
  RunLock,
  RunRecord,
  RunStatus,
  RunSummary,
  RunsOptions,
  StateStore,
  StateWrite,
  StoreStats,
  ThreadDeletion,
  ThreadInfo,
  Tombstone,
  VacuumResult,
  VariableMeta,
  WriteLogEntry,
} from "./store-types.js";
export { RUN_STATUSES } from "./store-types.js";
export { evictionAdvice } from "./variables/eviction-advice.js";
export type { GetValueOptions, GetValueResult } from "./variables/get-value.js";
export { getValue } from "./variables/get-value.js";
export { objectKeys } from "./variables/object-keys.js";
export type { ReferenceLimits } from "./variables/parse-stored-reference.js";
export type { ReadRetention } from "./variables/read-retention.js";
export type { SetValueOptions } from "./variables/set-value.js";
export { SET_VALUE_TOOL, setValue } from "./variables/set-value.js";
export { STORED_REFERENCE_SCHEMA } from "./variables/stored-reference-schema.js";
export type { CodePointPage } from "./variables/string-pages.js";
export { codePointPage } from "./variables/string-pages.js";
export type { SummarizeOptions, VariableSummary } from "./variables/summarize.js";
export { DEFAULT_SUMMARY_CHARS, summarize } from "./variables/summarize.js";
export type { SummaryEntry } from "./variables/summary-renderers.js";
export type { UnsetValueOptions, UnsetValueResult } from "./variables/unset-value.js";
export { UNSET_VALUE_TOOL, unsetValue } from "./variables/unset-value.js";
export { stateWrittenByCall } from "./variables/written-by.js";
