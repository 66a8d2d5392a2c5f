import { describe, expect, it } from "vitest";
import { didYouMean, NEAREST_NAMES_WORK, nearestNames } from "./did-you-mean.js";

describe("nearestNames", () => {
  it("returns close names, nearest first", () => {
    expect(nearestNames("stat", ["input", "state", "calls"])).toEqual(["state"]);
    expect(nearestNames("inptu", ["input", "state"])).toEqual(["input"]);
    expect(nearestNames("_outputPth", ["_outputPath", "_outputMethod", "_output"])).toEqual([
      "_outputPath",
      "_output",
    ]);
    expect(nearestNames("State", ["state", "stats"])).toEqual(["state", "stats"]);
  });

  it("ignores far names, the name itself, and respects max", () => {
    expect(nearestNames("x", ["input", "state", "calls"])).toEqual([]);
    expect(nearestNames("state", ["state"])).toEqual([]);
    expect(nearestNames("ab", ["aa", "ac", "ad", "ae"], 2)).toEqual(["aa", "ac"]);
  });

  it("counts an adjacent swap as one edit", () => {
    expect(nearestNames("evn", ["env", "state", "input"])).toEqual(["env"]);
    expect(nearestNames("inptu", ["input"])).toEqual(["input"]);
    expect(nearestNames("abc", ["cba"])).toEqual([]);
  });

  it("suggests nothing when the distance is large relative to the name", () => {
    expect(nearestNames("_foo", ["_tool", "_id", "_output"])).toEqual([]);
    expect(nearestNames("_tol", ["_tool"])).toEqual(["_tool"]);
  });
});

describe("nearestNames: bounded work (stop 29 review: long ids cost 0.3 s per hint)", () => {
  it("stops comparing once the name's length × the candidates' lengths passes the work budget", () => {
    const long = (letter: string) => `${"x".repeat(1_999)}${letter}`;
    // one pair of 2,000-character names is the whole budget (4,000,000 character pairs)
    expect(NEAREST_NAMES_WORK).toBe(4_000_000);
    expect(nearestNames(long("a"), [long("b"), "short"])).toEqual([long("b")]);
    expect(nearestNames(long("a"), [`${"y".repeat(1_000)}${"x".repeat(1_000)}`, long("b")])).toEqual([]);
  });

  it("compares every candidate of everyday lengths (5,000 ids of 20 characters)", () => {
    const ids = Array.from({ length: 4_999 }, (_, index) => `call_${String(index).padStart(15, "0")}`);
    ids.push("fetch_the_last_order");
    expect(nearestNames("fetch_the_last_ordr", ids, 1)).toEqual(["fetch_the_last_order"]);
  });
});

describe("didYouMean", () => {
  it("formats the hint or returns undefined", () => {
    expect(didYouMean("greetUsr", new Set(["greetUser", "search"]))).toBe('did you mean "greetUser"?');
    expect(didYouMean("zzz", ["greetUser"])).toBeUndefined();
  });
});
