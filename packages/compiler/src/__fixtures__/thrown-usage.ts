import { ObeliskError } from "@obelisk/core";

/**
 * The USAGE error a synchronous `work` throws; another error is rethrown, and `work` returning fails the
 * test with "`done`, where USAGE was expected" (`done`: what returning means, e.g. "the tool was registered").
 */
export function thrownUsage(work: () => unknown, done: string): ObeliskError {
  try {
    work();
  } catch (error) {
    if (ObeliskError.is(error, "USAGE")) return error;
    throw error;
  }
  throw new Error(`${done}, where USAGE was expected`);
}
