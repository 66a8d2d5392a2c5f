import type { ApplyOutputResult } from "./apply-output.js";
import { writeOutput } from "./apply-output.js";
import type { JsonValue } from "./json-value.js";
import type { OutputMethod } from "./output-methods.js";
import type { Path } from "./path.js";
import type { WriteJournal } from "./write-journal.js";
import { inPlacePolicy, type WritePolicy } from "./write-policy.js";

const UNJOURNALED: WritePolicy = inPlacePolicy(undefined);
/** The policy of the last journal seen: a journal reused for every write of a commit gets one policy. */
let lastJournal: WriteJournal | undefined;
let lastPolicy: WritePolicy = UNJOURNALED;

/**
 * `applyOutput` (same methods, checks and failure messages) that changes a privately owned tree in place:
 * unfrozen containers are owned and changed where they are; frozen ones are shared and copied before a
 * change (the copy is owned from then on). Returns the root to keep: `root` itself when it is owned, else
 * its copy. Costs O(path depth + size of the combined part), not O(width of the containers on the path).
 * A failed write changes nothing. Pass a `journal` to undo successful writes later (all-or-nothing commits).
 * Written values are placed as they are: pass frozen values (or values nothing else references).
 */
export function applyOutputInPlace(
  root: JsonValue | undefined,
  path: Path,
  method: OutputMethod,
  value: JsonValue,
  journal?: WriteJournal,
): ApplyOutputResult {
  if (journal === undefined) return writeOutput(root, path, method, value, UNJOURNALED);
  if (journal !== lastJournal) {
    lastJournal = journal;
    lastPolicy = inPlacePolicy(journal);
  }
  return writeOutput(root, path, method, value, lastPolicy);
}
