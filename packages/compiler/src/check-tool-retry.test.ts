import { ObeliskError } from "@obelisk/core";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool, type RetryAnswer } from "./tool-definition.js";
import { createToolRegistry } from "./tool-registry.js";

/** The USAGE message registering a tool with this retry policy throws, or "registered". */
function registering(retry: unknown): string {
  try {
    createToolRegistry([{ name: "flaky", run: () => 1, retry } as never]);
    return "registered";
  } catch (error) {
    if (!ObeliskError.is(error) || error.code !== "USAGE") throw error;
    return error.message;
  }
}

describe("a tool's retry policy is checked when the tool is registered (USAGE)", () => {
  it.each([
    ["attempts", Number.POSITIVE_INFINITY],
    ["attempts", Number.NaN],
    ["attempts", 0],
    ["attempts", -1],
    ["attempts", 2.5],
    ["attempts", "3"],
    ["attempts", 1001],
    ["backoffMs", Number.NaN],
    ["backoffMs", -50],
    ["backoffMs", Number.POSITIVE_INFINITY],
    ["backoffMs", "100"],
    ["maxDelayMs", -1],
    ["maxDelayMs", Number.POSITIVE_INFINITY],
    ["factor", 0.5],
    ["factor", Number.NaN],
    ["jitter", "yes"],
  ])("retry.%s = %s is refused, naming the tool and the field", (field, value) => {
    const message = registering({ [field]: value });
    expect(message).toContain('tool "flaky"');
    expect(message).toContain(`retry.${field}`);
  });

  it("a bigint is refused as a value of the wrong kind (showing it no longer throws)", () => {
    expect(registering({ backoffMs: 10n })).toBe(
      'tool "flaky": retry.backoffMs must be a finite number of ms, 0 or more, not 10n',
    );
  });

  it("shouldRetry may answer a delay for its retry ({ retry: true, delayMs }): the type takes it, registration keeps it", () => {
    class RateLimited extends Error {
      constructor(readonly retryAfterMs: number) {
        super("HTTP 429");
      }
    }
    const shouldRetry = (error: unknown): RetryAnswer =>
      error instanceof RateLimited
        ? { retry: true, delayMs: error.retryAfterMs }
        : error instanceof TypeError;
    const tool = createToolRegistry([
      defineTool({ name: "z", input: z.object({}), retry: { attempts: 3, shouldRetry }, run: () => 1 }),
    ]).get("z");
    expect(tool?.retry.shouldRetry).toBe(shouldRetry);
  });

  it("an unknown field is refused with the nearest name (it used to be ignored)", () => {
    expect(registering({ attempt: 3 })).toMatch(/retry\.attempt\b.*did you mean "attempts"/);
  });

  it.each(["constructor", "toString", "hasOwnProperty"])(
    "an inherited name (%s) is an unknown field, not a known one",
    (field) => {
      expect(registering(JSON.parse(`{"${field}": 3}`))).toContain(`unknown field retry.${field}`);
    },
  );

  it("a policy that is not an object is refused, as before", () => {
    expect(registering(3)).toContain("retry must be an object");
  });

  it("sane policies register, more attempts than a plan's _retry may ask for included", () => {
    for (const retry of [
      {},
      { attempts: 1 },
      { attempts: 1000, backoffMs: 0, factor: 1, maxDelayMs: 0, jitter: true },
      { attempts: 3, backoffMs: 200, factor: 2, maxDelayMs: 5000, jitter: false },
      // a delay longer than a timer holds is honoured as the longest wait (decision 0006)
      { attempts: 2, backoffMs: 2 ** 40, maxDelayMs: 2 ** 40 },
    ])
      expect(registering(retry)).toBe("registered");
    const tool = createToolRegistry([
      defineTool({ name: "z", input: z.object({}), retry: { attempts: 20 }, run: () => 1 }),
    ]).get("z");
    expect(tool?.retry).toEqual({ attempts: 20 });
  });
});
