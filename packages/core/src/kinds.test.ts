import { describe, expect, it } from "vitest";
import { BUILT_IN_KINDS, createKindTable, type KindInfo } from "./kinds.js";

const usage = expect.objectContaining({ code: "USAGE" });
const kind = (name: unknown, extra: Record<string, unknown> = {}) =>
  ({ kind: name, writable: false, engineManaged: false, description: "d", ...extra }) as KindInfo;

describe("createKindTable", () => {
  it("adds read-only host kinds to the built-ins", () => {
    const table = createKindTable([kind("env"), { kind: "tenant" } as KindInfo]);
    expect([...table.keys()]).toEqual([...BUILT_IN_KINDS.map((k) => k.kind), "env", "tenant"]);
    expect(table.get("tenant")).toEqual({
      kind: "tenant",
      writable: false,
      engineManaged: false,
      description: "tenant",
    });
  });

  it("refuses a malformed, reserved or repeated kind with USAGE", () => {
    for (const name of ["state", "input", "calls"])
      expect(() => createKindTable([kind(name)])).toThrow(usage);
    for (const name of ["bad kind", "", "__proto__", "constructor", 5])
      expect(() => createKindTable([kind(name)])).toThrow(usage);
    expect(() => createKindTable([kind("env"), kind("env")])).toThrow(usage);
    expect(() => createKindTable([kind("env", { writable: "yes" })])).toThrow(usage);
    expect(() => createKindTable([kind("env", { description: 5 })])).toThrow(usage);
    expect(() => createKindTable(["env" as unknown as KindInfo])).toThrow(usage);
    expect(() => createKindTable("env" as unknown as KindInfo[])).toThrow(usage);
  });
});
