import { describe, expect, it } from "vitest";
import { createEngine, ObeliskError, type ToolDefinition } from "./index.js";

/** The code `createEngine` throws for a tool with this retry policy ("created" when it does not). */
function creating(retry: unknown): string {
  const tool = { name: "flaky", run: () => 1, retry } as ToolDefinition;
  try {
    void createEngine({ tools: [tool] }).close();
    return "created";
  } catch (error) {
    return ObeliskError.is(error) ? error.code : "not an ObeliskError";
  }
}

describe("createEngine refuses a tool retry policy that would not mean what it says", () => {
  it("Infinity, NaN, negative, string and fractional values, and unknown fields, are USAGE", () => {
    for (const retry of [
      { attempts: Number.POSITIVE_INFINITY, backoffMs: 1, maxDelayMs: 5 },
      { attempts: 3, backoffMs: Number.NaN },
      { attempts: 3, backoffMs: -50 },
      { attempts: "3" },
      { attempts: 2.5 },
      { retries: 3 },
    ])
      expect([retry, creating(retry)]).toEqual([retry, "USAGE"]);
    expect(creating({ attempts: 50, backoffMs: 200, factor: 2, maxDelayMs: 5000, jitter: true })).toBe(
      "created",
    );
  });
});
