import type { RunEvent } from "./run-event.js";

/** A run event as the runner builds it: the runner adds `runId`, `threadId` and `at` (distributed over the union). */
export type EventInput = RunEvent extends infer E
  ? E extends RunEvent
    ? Omit<E, "runId" | "threadId" | "at">
    : never
  : never;
