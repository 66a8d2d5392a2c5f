declare const brand: unique symbol;
/** A nominal brand on top of a primitive. */
export type Brand<T, B extends string> = T & { readonly [brand]: B };

/** The id of one call in a plan (`_id`, or `<tool>$<n>`). */
export type CallId = Brand<string, "CallId">;
/** The id of one thread (conversation / workflow instance). */
export type ThreadId = Brand<string, "ThreadId">;
/** The id of one run (tick) of a plan on a thread. */
export type RunId = Brand<string, "RunId">;

/** Brands a string as a call id (no validation: use `isValidCallId` first for untrusted input). */
export const asCallId = (id: string): CallId => id as CallId;
/** Brands a string as a thread id. */
export const asThreadId = (id: string): ThreadId => id as ThreadId;
/** Brands a string as a run id. */
export const asRunId = (id: string): RunId => id as RunId;
