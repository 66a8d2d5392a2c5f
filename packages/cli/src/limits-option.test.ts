import { DEFAULT_LIMITS, ObeliskError, resolveLimits } from "@obelisk/core";
import { InvalidArgumentError } from "commander";
import type { RunResult } from "obelisk";
import { describe, expect, it } from "vitest";
import {
  collectLimits,
  limitHint,
  limitsWords,
  parsePageLimit,
  unknownOptionMessage,
  withValueLimitHint,
} from "./limits-option.js";
import { whatNext } from "./what-next.js";

/** The message of the flag error `action` throws. */
function refusal(action: () => unknown): string {
  try {
    action();
  } catch (error) {
    return error instanceof InvalidArgumentError ? error.message : "not a flag error";
  }
  return "nothing thrown";
}

describe("--limits", () => {
  it("reads name=n lists, repeated, a later value winning", () => {
    expect(collectLimits("maxDepth=128", undefined)).toEqual({ maxDepth: 128 });
    expect(collectLimits("maxCalls=5, maxDepth = 3", { maxDepth: 128 })).toEqual({
      maxDepth: 3,
      maxCalls: 5,
    });
  });

  it("refuses an unknown name with the nearest one, and a value that is no positive safe integer", () => {
    expect(refusal(() => collectLimits("maxdepth=3", undefined))).toBe(
      'unknown limit maxdepth (did you mean "maxDepth"?)',
    );
    expect(refusal(() => collectLimits("nothing=3", undefined))).toMatch(
      /^unknown limit nothing \(limits: maxDocumentBytes, /,
    );
    for (const value of ["0", "-3", "1.5", "1e3", "", "0x10", "9007199254740992"])
      expect(refusal(() => collectLimits(`maxDepth=${value}`, undefined))).toBe(
        `limit maxDepth must be a whole number from 1 to 9007199254740991, got "${value}"`,
      );
    expect(refusal(() => collectLimits("maxDepth", undefined))).toMatch(/^expected <name>=<n>/);
    expect(refusal(() => collectLimits("=3", undefined))).toMatch(/^expected <name>=<n>/);
  });

  it("a PLAN_LIMIT hint says how to change the limit the engine's hint (or message) names", () => {
    const limits = resolveLimits({ maxDepth: 70 });
    expect(limitHint("flatten the structure, or raise maxDepth", "…", limits)).toBe(
      "flatten the structure, or raise maxDepth; with the CLI: --limits maxDepth=<n> (now 70)",
    );
    expect(limitHint(undefined, "more than 100000 calls (maxCalls)", limits)).toBe(
      "with the CLI: --limits maxCalls=<n> (now 100000)",
    );
    expect(limitHint("split it", "too many", limits)).toMatch(
      /^split it; with the CLI: set a limit with --limits <name>=<n> \(names: /,
    );
  });

  it("gives the words that repeat the limits in a suggested command", () => {
    expect(limitsWords(undefined)).toEqual([]);
    expect(limitsWords({ maxDepth: 3, maxCalls: 9 })).toEqual(["--limits", "maxDepth=3,maxCalls=9"]);
    const cancelled = { runId: "r1", threadId: "t", status: "cancelled", calls: {} } as unknown as RunResult;
    expect(
      whatNext(cancelled, {
        command: "obelisk",
        store: "sqlite:s.db",
        tools: "t.mjs",
        limits: { maxDepth: 3 },
      }),
    ).toContain(
      "finish what is left:     obelisk resume r1 --tools t.mjs --store sqlite:s.db --limits maxDepth=3",
    );
  });

  it("the page size --limit says where an engine limit goes; --limits where it is unknown too", () => {
    expect(parsePageLimit("5")).toBe(5);
    expect(refusal(() => parsePageLimit("maxDepth=3"))).toContain("--limit <n> is the page size");
    expect(refusal(() => parsePageLimit("0"))).not.toContain("page size");
    expect(unknownOptionMessage("unknown option '--limits' (Did you mean --limit?)")).toBe(
      "unknown option '--limits': this command takes no engine limits (validate, run, graph, schema, resume and state set, get, unset and summary do)",
    );
    expect(unknownOptionMessage("unknown option '--bogus'")).toBe("unknown option '--bogus'");
  });

  it("a refused value over maxValueBytes gets a hint naming the flag; other refusals stay as they are", () => {
    const limits = resolveLimits({ maxValueBytes: 4 });
    const tooLarge = new ObeliskError("OUTPUT_WRITE_FAILED", "larger than 4 bytes of JSON");
    const hinted = withValueLimitHint(tooLarge, "a long text", limits, "or not");
    expect(ObeliskError.is(hinted) && [hinted.code, hinted.message, hinted.hint]).toEqual([
      "OUTPUT_WRITE_FAILED",
      "larger than 4 bytes of JSON",
      "or not; or raise the limit: --limits maxValueBytes=<n> (now 4)",
    ]);
    expect(withValueLimitHint(tooLarge, "ab", limits)).toBe(tooLarge);
    const busy = new ObeliskError("THREAD_BUSY", "busy");
    expect(withValueLimitHint(busy, "a long text", limits)).toBe(busy);
    expect(DEFAULT_LIMITS.maxValueBytes).toBeGreaterThan(4);
  });
});
