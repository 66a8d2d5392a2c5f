import { describe, expect, it } from "vitest";
import { EventChannel } from "./event-channel.js";
import type { RunEvent } from "./run-event.js";

const event = (type: string, at: number): RunEvent => ({ type, runId: "r", at }) as unknown as RunEvent;

async function collect(channel: EventChannel): Promise<string[]> {
  const seen: string[] = [];
  for await (const item of channel) seen.push(`${item.type}@${item.at}`);
  return seen;
}

describe("EventChannel", () => {
  it("gives every buffered and later event in order, ending after run-end", async () => {
    const channel = new EventChannel();
    for (let at = 0; at < 1_000; at++) channel.push(event("call-end", at));
    const all = collect(channel);
    channel.push(event("call-end", 1_000));
    channel.push(event("run-end", 1_001));
    channel.push(event("call-end", 1_002)); // after run-end: dropped
    const seen = await all;
    expect(seen).toHaveLength(1_002);
    expect(seen[0]).toBe("call-end@0");
    expect(seen.at(-1)).toBe("run-end@1001");
  });

  it("refuses a second iteration: two iterators would each see part of the events", async () => {
    const channel = new EventChannel();
    channel.push(event("run-start", 0));
    const first = channel[Symbol.asyncIterator]();
    expect(() => channel[Symbol.asyncIterator]()).toThrow(expect.objectContaining({ code: "USAGE" }));
    channel.push(event("run-end", 1));
    expect(await first.next()).toEqual({ value: event("run-start", 0), done: false });
    expect(await first.next()).toEqual({ value: event("run-end", 1), done: false });
    expect(await first.next()).toEqual({ value: undefined, done: true });
  });
});
