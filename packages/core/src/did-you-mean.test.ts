import { describe, expect, it } from "vitest";
import { didYouMean, nearestNames } from "./did-you-mean.js";

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

describe("didYouMean", () => {
  it("formats the hint or returns undefined", () => {
    expect(didYouMean("greetUsr", new Set(["greetUser", "search"]))).toBe('did you mean "greetUser"?');
    expect(didYouMean("zzz", ["greetUser"])).toBeUndefined();
  });
});
