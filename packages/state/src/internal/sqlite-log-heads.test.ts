import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { WriteLogEntry } from "../store-types.js";
import { logHead } from "./sqlite-log-heads.js";

const tricky = fc.oneof(
  fc.string(),
  fc.constantFrom(',"value":', '"},"op":"unset"}', ',"compacted":true}', '\\",\\"value\\":', "†state.a"),
);
const entry: fc.Arbitrary<WriteLogEntry> = fc
  .record({
    seq: fc.nat(),
    runId: tricky,
    id: tricky,
    tool: tricky,
    path: fc.array(fc.oneof(tricky, fc.nat()), { minLength: 1, maxLength: 4 }),
    method: fc.constantFrom("set", "merge", "assign", "push", "concat"),
    value: fc.jsonValue(),
    reference: tricky,
    op: fc.constantFrom(undefined, "unset", "reset"),
    compacted: fc.boolean(),
  })
  .map(({ seq, runId, id, tool, path, method, value, reference, op, compacted }) => ({
    seq,
    runId: runId as never,
    call: { id, tool },
    date: "2025-01-01T00:00:00.000Z",
    write: { path, method, value: value as never, reference },
    ...(op === undefined ? {} : { op }),
    ...(compacted ? { compacted: true as const } : {}),
  }));

describe("logHead", () => {
  it("reads what compaction needs of a row as a full parse does, whatever the strings and the value hold", () => {
    fc.assert(
      fc.property(entry, (written) => {
        const text = JSON.stringify(written);
        const parsed = JSON.parse(text) as WriteLogEntry;
        const head = logHead(text);
        expect(head).toEqual({
          seq: parsed.seq,
          runId: parsed.runId,
          callId: parsed.call.id,
          path: parsed.write.path,
          method: parsed.write.method,
          ...(parsed.op === undefined ? {} : { op: parsed.op }),
          ...(parsed.compacted === true ? { compacted: true } : {}),
          text,
        });
      }),
      { numRuns: 2000, seed: 20240601 },
    );
  });
});
