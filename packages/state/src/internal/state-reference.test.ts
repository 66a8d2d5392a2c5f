import { formatReference, type Path } from "@obelisk/core";
import { describe, expect, it } from "vitest";
import { isStateReference } from "./state-reference.js";

const PATHS: Path[] = [
  ["a"],
  ["user", "name"],
  ["list", 0],
  ["list", 12, "x-y", "$z_"],
  ["0"],
  ["a b"],
  ["é"],
  ["a", "0"],
  [1e21],
  [-1],
  [1.5],
  ["a.b"],
  ['q"'],
];

describe("isStateReference", () => {
  it("accepts exactly the canonical text of a path", () => {
    for (const path of PATHS) {
      const canonical = formatReference("state", path);
      const simple = path.every((s) => typeof s === "number" || /^[A-Za-z_$][A-Za-z0-9_$-]*$/.test(s));
      expect(isStateReference(canonical, path)).toBe(
        simple && path.every((s) => s !== 1e21 && s !== -1 && s !== 1.5),
      );
      for (const other of PATHS)
        if (formatReference("state", other) !== canonical)
          expect(isStateReference(formatReference("state", other), path)).toBe(false);
    }
  });

  it("refuses near misses", () => {
    expect(isStateReference("†state.a.", ["a"])).toBe(false);
    expect(isStateReference("†state.ab", ["a"])).toBe(false);
    expect(isStateReference("†state[01]", [1])).toBe(false);
    expect(isStateReference("†state[1", [1])).toBe(false);
    expect(isStateReference("†calls.a", ["a"])).toBe(false);
    expect(isStateReference("†state", [])).toBe(true);
  });
});
