import { ObeliskError } from "./obelisk-error.js";
import { thrownMessage } from "./thrown-message.js";

/** The hint of {@link hostReadThrew}: what the engine can read. */
const PLAIN_DATA_HINT =
  "pass plain objects and arrays (a getter or Proxy trap that throws cannot be read): e.g. copy it first with { ...value }";

/**
 * USAGE for a host object that threw while the engine read it (a getter, a Proxy trap, a revoked Proxy):
 * `where` names it (`createEngine's option "tools"`, `tools[2]`), the message carries what it threw.
 */
function hostReadThrew(where: string, error: unknown): ObeliskError {
  return new ObeliskError("USAGE", `${where}: reading it threw: ${thrownMessage(error)}`, {
    hint: PLAIN_DATA_HINT,
    cause: error,
  });
}

/**
 * `read()`, with anything it throws that is no ObeliskError (a host getter or Proxy trap) turned into
 * USAGE naming `where` ({@link hostReadThrew}); an ObeliskError (a refusal of what was read) passes on.
 */
export function readHostValue<T>(where: string, read: () => T): T {
  try {
    return read();
  } catch (error) {
    if (error instanceof ObeliskError) throw error;
    throw hostReadThrew(where, error);
  }
}
