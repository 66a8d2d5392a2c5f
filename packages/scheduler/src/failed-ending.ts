import type { CallEnding } from "./call-record.js";

/** A `failed` ending with an ObeliskError of `code` (nothing written). */
export const failed = (code: string, message: string): CallEnding => ({
  status: "failed",
  wrote: [],
  error: { name: "ObeliskError", code, message },
});
