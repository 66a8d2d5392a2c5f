import { describe, expect, expectTypeOf, it } from "vitest";
import { createEngine } from "./create-engine.js";
import type { AddResult } from "./engine-types.js";

// Type-level tests (`pnpm lint` type-checks this file): `ok` narrows `add`'s answer, as `found` narrows
// `engine.get`'s; the runtime part checks real answers have what their `ok` promises.

/** What a host writes against `add`'s answer (before, `callId` stayed `string | undefined` here). */
function acceptedId(added: AddResult): string | undefined {
  if (added.ok) {
    expectTypeOf(added.callId).toEqualTypeOf<string>();
    return added.callId.toUpperCase();
  }
  expectTypeOf(added.callId).toEqualTypeOf<undefined>();
  return undefined;
}

describe("AddResult", () => {
  it("is accepted with a callId or refused without one, so narrowing on ok is safe", async () => {
    const engine = createEngine({ tools: [{ name: "echo", run: (args: unknown) => args }] });
    const stream = await engine.open({ threadId: "t" });
    const accepted = stream.add({ _tool: "echo", _id: "e" });
    const refused = stream.add({ _tool: "nope" });
    expect(accepted).toEqual({ ok: true, callId: "e", diagnostics: [] });
    expect(acceptedId(accepted)).toBe("E");
    expect(refused.ok).toBe(false);
    expect(refused).not.toHaveProperty("callId");
    expect(acceptedId(refused)).toBeUndefined();
    await stream.close();
    await engine.close();
  });
});
