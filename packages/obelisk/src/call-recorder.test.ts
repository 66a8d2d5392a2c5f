import type { CompiledCall } from "@obelisk/compiler";
import { asRunId, type JsonValue } from "@obelisk/core";
import type { StateStore } from "@obelisk/state";
import { describe, expect, it } from "vitest";
import { type Deferred, deferred, until } from "./__fixtures__/deferred.js";
import { CallRecorder } from "./call-recorder.js";

const RUN = asRunId("r");
const compiled = (id: string) => ({ id }) as unknown as CompiledCall;

/** A store whose `appendRunCalls` answers as the test says: synchronously, or with a deferred per call. */
function storeAnswering(answer: (calls: readonly JsonValue[]) => unknown) {
  const appended: JsonValue[] = [];
  const store = {
    appendRunCalls: (_runId: unknown, calls: readonly JsonValue[]) => {
      appended.push(...calls);
      return answer(calls);
    },
  } as unknown as StateStore;
  return { store, appended };
}

describe("CallRecorder: a streamed call is recorded before it starts", () => {
  it("a synchronous store: recorded and started before record returns; a failure throws and starts nothing", async () => {
    let fail = false;
    const { store, appended } = storeAnswering(() => {
      if (fail) throw new Error("disk full");
    });
    const started: string[] = [];
    const recorder = new CallRecorder(store, RUN, (call) => started.push(call.id));
    recorder.record({ n: 1 }, compiled("a"));
    expect(appended).toEqual([{ n: 1 }]);
    expect(started).toEqual(["a"]);
    fail = true;
    expect(() => recorder.record({ n: 2 }, compiled("b"))).toThrow("disk full");
    expect(started).toEqual(["a"]);
    await expect(recorder.settled()).resolves.toBeUndefined();
  });

  it("an asynchronous store: calls start in order, each once recorded; the first failure stops the rest", async () => {
    const answers: Deferred<void>[] = [];
    const { store, appended } = storeAnswering(() => {
      const answer = deferred<void>();
      answers.push(answer);
      return answer.promise;
    });
    const started: string[] = [];
    const recorder = new CallRecorder(store, RUN, (call) => started.push(call.id));
    recorder.record({ n: 1 }, compiled("a"));
    recorder.record({ n: 2 }, compiled("b"));
    recorder.record({ n: 3 }, compiled("c"));
    expect(started).toEqual([]);
    answers[0]?.resolve();
    await until(() => started.length === 1 && answers.length === 2);
    expect(started).toEqual(["a"]);
    answers[1]?.reject(new Error("store gone"));
    await expect(recorder.settled()).rejects.toThrow("store gone");
    expect(started).toEqual(["a"]);
    expect(appended).toEqual([{ n: 1 }, { n: 2 }]);
  });

  it("a store without appendRunCalls: calls start at once", async () => {
    const started: string[] = [];
    const recorder = new CallRecorder({} as StateStore, RUN, (call) => started.push(call.id));
    recorder.record({ n: 1 }, compiled("a"));
    expect(started).toEqual(["a"]);
    await expect(recorder.settled()).resolves.toBeUndefined();
  });

  it("the call's number is reserved before it is recorded, in order, also when reserving is asynchronous (decision 0099)", async () => {
    const steps: string[] = [];
    const { store } = storeAnswering((calls) => {
      steps.push(`append ${JSON.stringify(calls[0])}`);
    });
    const reservations: Deferred<number>[] = [];
    const reserve = (call: CompiledCall): Promise<number> => {
      steps.push(`reserve ${call.id}`);
      const answer = deferred<number>();
      reservations.push(answer);
      return answer.promise;
    };
    const started: string[] = [];
    const recorder = new CallRecorder(store, RUN, (call) => started.push(call.id), reserve);
    recorder.record({ n: 1 }, compiled("a"));
    recorder.record({ n: 2 }, compiled("b"));
    expect(steps).toEqual(["reserve a"]);
    reservations[0]?.resolve(1);
    await until(() => reservations.length === 2);
    expect(steps).toEqual(["reserve a", 'append {"n":1}', "reserve b"]);
    expect(started).toEqual(["a"]);
    reservations[1]?.reject(new Error("disk full"));
    await expect(recorder.settled()).rejects.toThrow("disk full");
    expect(started).toEqual(["a"]);
    expect(steps).toHaveLength(3);
  });
});
