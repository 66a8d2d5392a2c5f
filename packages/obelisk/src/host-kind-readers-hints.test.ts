import { describe, expect, it } from "vitest";
import { createEngine, type Diagnostic, defineTool } from "./index.js";

// Decision 0082: a plan that reads a scoped host kind where it may not learns who may read it
// (REF_KIND_FORBIDDEN), never the kind's keys, shape or types through the compiler's other diagnostics.

const echo = (name: string, properties: Record<string, { type: string }>) =>
  defineTool({ name, input: { type: "object", properties }, run: () => 1 });
const engine = createEngine({
  tools: [
    echo("callApi", { auth: { type: "string" } }),
    echo("fmt", { text: { type: "string" }, n: { type: "number" } }),
  ],
  kinds: [
    { kind: "secrets", readers: { callApi: ["auth"] } },
    { kind: "vault", readers: {} },
    { kind: "user" },
  ],
});
const context = { secrets: { apiKey: "sk-1", list: [1] }, vault: { master: "m" }, user: { name: "ann" } };
const said = (diagnostics: readonly Diagnostic[]) => diagnostics.map((d) => `${d.code} ${d.hint ?? ""}`);
const validated = async (call: object) => said((await engine.validate([call], { context })).diagnostics);

describe("validate tells a parameter nothing of a host kind it may not read", () => {
  it("a forbidden read gets REF_KIND_FORBIDDEN alone; a literal probing a kind's keys, no warning", async () => {
    for (const call of [
      { _tool: "fmt", text: "†secrets.apiKy" },
      { _tool: "fmt", text: "†secrets.list.total" },
      { _tool: "fmt", n: "†secrets.apiKey" },
      { _tool: "fmt", text: "†vault.mastr" },
    ])
      expect((await validated(call)).map((line) => line.split(" ")[0])).toEqual(["REF_KIND_FORBIDDEN"]);
    expect(await validated({ _tool: "fmt", text: "vault.master" })).toEqual([]);
    expect(await validated({ _tool: "fmt", text: "†vaul.master" })).toEqual([
      "REF_KIND_UNKNOWN known kinds: input, state, calls, user",
    ]);
    // where it may read, the hints stay
    expect(await validated({ _tool: "callApi", auth: "†secrets.apiKy" })).toEqual([
      'REF_UNRESOLVED did you mean "†secrets.apiKey"? (the secrets context has no value there)',
    ]);
  });
});
