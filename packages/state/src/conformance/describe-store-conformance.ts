import { afterEach, describe } from "vitest";
import type { StoreOptions } from "../store-options.js";
import type { StateStore } from "../store-types.js";
import { boundedRestCases } from "./bounded-rest-cases.js";
import { commitCases } from "./commit-cases.js";
import type { MakeStore } from "./commit-fixtures.js";
import { deferredHashCases } from "./deferred-hash-cases.js";
import { deleteThreadCases } from "./delete-thread-cases.js";
import { evictionCases } from "./eviction-cases.js";
import { historyCases } from "./history-cases.js";
import { interruptedCases } from "./interrupted-cases.js";
import { lifecycleCases } from "./lifecycle-cases.js";
import { listThreadsCases } from "./list-threads-cases.js";
import { lockCases } from "./lock-cases.js";
import { lockHolderCases } from "./lock-holder-cases.js";
import { logCompactionCases } from "./log-compaction-cases.js";
import { numberedCases } from "./numbered-cases.js";
import { overwriteCases } from "./overwrite-cases.js";
import { pruneRunsCases } from "./prune-runs-cases.js";
import { recordResultCases } from "./record-result-cases.js";
import { removalCases } from "./removal-cases.js";
import { runSummariesCases } from "./run-summaries-cases.js";
import { runsCursorCases } from "./runs-cursor-cases.js";
import { supersededTombstoneCases } from "./superseded-tombstone-cases.js";
import { threadIdCases } from "./thread-id-cases.js";
import { variableCases } from "./variable-cases.js";
import { waitingRunsCases } from "./waiting-runs-cases.js";
import { writtenBelowCases } from "./written-below-cases.js";

/** Opens stores for a test and closes them afterwards. */
export type OpenStore = (options?: StoreOptions) => Promise<StateStore>;

/**
 * The conformance suite every StateStore backend must pass (SPEC §8): commits (call hashes the store fills
 * in included, decision 0038), folding, atomicity,
 * schema checks, history (with the runs waiting for approval, and run summaries: decision 0104), counters, locks and their holder, variables, lifecycle, removals, the
 * tombstones writes supersede, the earlier designs' weaknesses, and bounded history (decision 0029: records' results, log compaction,
 * `pruneRuns`, `deleteThread`) and its rest (decision 0034: tombstones, parameters, host edits), and thread ids
 * that are not well-formed UTF-16 (decision 0093).
 */
export function describeStoreConformance(name: string, makeStore: MakeStore): void {
  describe(`StateStore conformance: ${name}`, () => {
    const open: StateStore[] = [];
    afterEach(async () => {
      for (const store of open.splice(0)) await store.close();
    });
    const openStore: OpenStore = async (options) => {
      const store = await makeStore(options);
      open.push(store);
      return store;
    };
    commitCases(openStore);
    deferredHashCases(openStore);
    historyCases(openStore);
    interruptedCases(openStore);
    waitingRunsCases(openStore);
    runsCursorCases(openStore);
    runSummariesCases(openStore);
    lockCases(openStore);
    lockHolderCases(openStore);
    numberedCases(openStore);
    variableCases(openStore);
    writtenBelowCases(openStore);
    lifecycleCases(openStore);
    evictionCases(openStore);
    removalCases(openStore);
    overwriteCases(openStore);
    supersededTombstoneCases(openStore);
    recordResultCases(openStore);
    logCompactionCases(openStore);
    pruneRunsCases(openStore);
    deleteThreadCases(openStore);
    listThreadsCases(openStore);
    threadIdCases(openStore);
    boundedRestCases(openStore);
  });
}
