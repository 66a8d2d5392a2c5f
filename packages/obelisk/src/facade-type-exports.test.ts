/**
 * Every type the public signatures of `obelisk` and `obelisk/sqlite` mention can be imported from them, and
 * so can every type a custom `StateStore` needs. The imports are the type-level assertion (`tsc` fails on a
 * type the entry does not export); the runtime assertion checks the values users get have those types.
 */
import { describe, expect, it } from "vitest";
import type {
  Awaitable,
  Brand,
  CallCommit,
  CallId,
  CallStatusFacts,
  Clock,
  CommitResult,
  CompiledCall,
  CompiledPlan,
  DeleteThreadOptions,
  FinalPlan,
  FinishRunOptions,
  InferInput,
  InferOutput,
  InputExpression,
  LimitOverrides,
  NumberedCommitOptions,
  NumberedCommitResult,
  OutputMethod,
  OutputPath,
  OutputTarget,
  ParameterValue,
  ParamReference,
  Path,
  PathSegment,
  PlanCallSource,
  PlanDocument,
  PlanEdgeAttributes,
  PlanForm,
  PlanGraph,
  PlanJoinAttributes,
  PlanNodeAttributes,
  PruneRunsOptions,
  ReasonedStatus,
  RecordedError,
  Reference,
  RegisteredTool,
  RemovalResult,
  RemovalTarget,
  RetryPolicyInput,
  RunLock,
  RunsOptions,
  SchemaCheck,
  SchemaInput,
  SchemaIssue,
  Severity,
  SourceMap,
  SourcePosition,
  StateStore,
  StateWrite,
  StoreOptions,
  StoreStats,
  SummaryEntry,
  ThreadInfo,
  Tombstone,
  ToolRegistryOptions,
  VariableMeta,
  WriteLogEntry,
  WriterLink,
} from "./index.js";
import { createEngine, createMemoryStore, defineTool } from "./index.js";
import type {
  StoreOptions as SqliteBaseOptions,
  Clock as SqliteClock,
  SqliteLockOptions,
  RetentionPolicy as SqliteRetentionPolicy,
  StateStore as SqliteStateStore,
  SqliteStoreOptions,
} from "./sqlite.js";

/** Compiles only when `A` and `B` are the same type. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const same = <A, B>(proof: Same<A, B>): boolean => proof;

/** The methods and their argument types a custom store implements, each named by an `obelisk` export. */
type StoreSignatures = {
  openThread(threadId: string, options?: { readonly stateSchema?: object }): Promise<ThreadInfo>;
  lockThread(threadId: string): Promise<RunLock>;
  commitCall(commit: CallCommit): Awaitable<CommitResult>;
  commitNumbered(
    threadId: string,
    build: (n: number) => CallCommit,
    options?: NumberedCommitOptions,
  ): Awaitable<NumberedCommitResult>;
  removeNumbered(threadId: string, target: RemovalTarget): Awaitable<RemovalResult>;
  finishRun(runId: string, final?: FinalPlan, options?: FinishRunOptions): Awaitable<void>;
  listRuns(options?: RunsOptions): unknown;
  getTombstone(): Awaitable<Tombstone | undefined>;
  readWriteLog(): Awaitable<readonly WriteLogEntry[]>;
  listVariables(): Awaitable<readonly VariableMeta[]>;
  stats(): Awaitable<StoreStats>;
  pruneRuns(options: PruneRunsOptions): unknown;
  deleteThread(threadId: string, options?: DeleteThreadOptions): unknown;
  write: StateWrite;
  error: RecordedError;
  method: OutputMethod;
  path: Path;
  segment: PathSegment;
};

/** The rest of the newly exported types, each used once (an unexported one fails to compile here). */
type Named = [
  Brand<string, "x">,
  CallId,
  CallStatusFacts<unknown>,
  Clock,
  CompiledCall,
  InferInput<SchemaInput>,
  InferOutput<SchemaInput>,
  InputExpression,
  LimitOverrides,
  OutputPath,
  OutputTarget,
  ParameterValue,
  ParamReference,
  PlanCallSource,
  PlanDocument,
  PlanEdgeAttributes,
  PlanForm,
  PlanGraph,
  PlanJoinAttributes,
  PlanNodeAttributes,
  ReasonedStatus,
  Reference,
  RegisteredTool,
  RetryPolicyInput,
  SchemaCheck,
  SchemaIssue,
  Severity,
  SourceMap,
  SourcePosition,
  StoreOptions,
  SummaryEntry,
  ToolRegistryOptions,
  WriterLink,
  StoreSignatures,
  SqliteLockOptions,
  SqliteStoreOptions,
];

describe("the facade exports the types of its public signatures", () => {
  it("ValidationResult.compiled is a CompiledPlan, a summary's entries SummaryEntry, a store a StateStore", async () => {
    const storeOptions: StoreOptions = { now: () => 0 };
    const store: StateStore = createMemoryStore(storeOptions);
    const engine = createEngine({ tools: [defineTool({ name: "echo", run: () => "hi" })], store });
    const validation = await engine.validate({ type: "plan", plan: [{ _tool: "echo", _id: "a" }] });
    const compiled: CompiledPlan = validation.compiled;
    const callId: CallId | undefined = compiled.calls[0]?.id;
    expect(callId).toBe("a");
    await engine.set("t", "†state.x", 1);
    const entries: readonly SummaryEntry[] = (await engine.summarize("t")).entries;
    expect(entries.map((entry) => entry.reference)).toEqual(["†state.x"]);
    const lock: SqliteLockOptions = { pollMs: 10 };
    expect(lock.pollMs).toBe(10);
    expect(same<SqliteStateStore, StateStore>(true)).toBe(true);
    expect(same<SqliteBaseOptions, StoreOptions>(true)).toBe(true);
    expect(same<SqliteClock, Clock>(true)).toBe(true);
    expect(same<SqliteRetentionPolicy["maxBytes"], number | undefined>(true)).toBe(true);
    const named: Named | undefined = undefined;
    expect(named).toBeUndefined();
    await engine.close();
  });
});
