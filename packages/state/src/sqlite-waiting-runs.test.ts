import { asRunId } from "@obelisk/core";
import { afterAll, describe, expect, it } from "vitest";
import { sqliteStoreFiles } from "./__fixtures__/sqlite-store-files.js";
import { commitOk, runRecord } from "./conformance/commit-fixtures.js";

const { storeFile, closeAll } = sqliteStoreFiles("obelisk-waiting-");
afterAll(closeAll);

describe("sqlite: listWaitingRuns and its index", () => {
  it("a file written without call_records_waiting gets it at the next writable open; read-only works without", async () => {
    const setup = storeFile();
    const store = setup.open();
    await store.createRun(runRecord({ runId: asRunId("gated"), status: "succeeded" }));
    await commitOk(store, { callId: "pay", runId: asRunId("gated"), status: "waiting" });
    await store.createRun(runRecord({ runId: asRunId("plain"), status: "succeeded" }));
    await commitOk(store, { callId: "note", runId: asRunId("plain") });
    await store.close();
    setup.raw("DROP INDEX call_records_waiting");
    const index = () => setup.raw("SELECT name FROM sqlite_master WHERE name = 'call_records_waiting'");
    const readonly = setup.open({ readonly: true });
    expect((await readonly.listWaitingRuns?.())?.map((run) => run.runId)).toEqual(["gated"]);
    expect(index()).toEqual([]);
    const writable = setup.open();
    expect(index()).toEqual([{ name: "call_records_waiting" }]);
    expect((await writable.listWaitingRuns?.())?.map((run) => run.runId)).toEqual(["gated"]);
  });
});
