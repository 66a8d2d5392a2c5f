import type { Diagnostic, PlanDocument } from "@obelisk/core";
import { describe, expect, it } from "vitest";
import { withInputDiagnostics } from "./with-input-diagnostics.js";

const diagnostic = (pointer: string, message: string): Diagnostic => ({
  code: "PARAM_INVALID",
  severity: "error",
  message,
  pointer,
});
const document = { source: { plan: [], inputSchema: {}, id: 1 } } as unknown as PlanDocument;

describe("withInputDiagnostics", () => {
  it("reads each diagnostic's pointer once (review s35 H1: it was read again for every input diagnostic), keeping the order", () => {
    let reads = 0;
    const counted = (pointer: string, message: string): Diagnostic => ({
      ...diagnostic(pointer, message),
      get pointer() {
        reads++;
        return pointer;
      },
    });
    const compiled = Array.from({ length: 50 }, (_, at) => counted(`/plan/${at}`, `c${at}`));
    const input = Array.from({ length: 50 }, (_, at) => counted(`/inputSchema/${at}`, `i${at}`));
    const merged = withInputDiagnostics(compiled, input, document);
    expect(merged.map((d) => d.message)).toEqual([...compiled, ...input].map((d) => d.message));
    expect(reads).toBe(100);
    // (the order is the one it was: before the first compiled one of a later top-level key, in input order)
    const mixed = [diagnostic("/plan/0", "c1"), diagnostic("/id", "c2"), diagnostic("/plan/1", "c3")];
    const inputs = [
      diagnostic("/inputSchema/a", "i1"),
      diagnostic("", "i2"),
      diagnostic("/inputSchema/b", "i3"),
    ];
    expect(withInputDiagnostics(mixed, inputs, document).map((d) => d.message)).toEqual([
      "i2",
      "c1",
      "i1",
      "i3",
      "c2",
      "c3",
    ]);
  });
});
