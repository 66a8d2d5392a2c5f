import { describe, expect, it } from "vitest";
import { isoTime } from "./iso-time.js";

describe("isoTime", () => {
  it("gives Date's ISO text for alternating, repeated and new times", () => {
    const times = [0, 1, 0, 1, 1, 2, 1_700_000_000_123, 2, 1_700_000_000_123, -1];
    for (const ms of times) expect(isoTime(ms)).toBe(new Date(ms).toISOString());
  });
});
