import { createKindTable, type Diagnostic, type LanguageIssue } from "@obelisk/core";
import { describe, expect, it } from "vitest";
import { compile } from "./compile.js";
import type { CompileOptions } from "./compile-options.js";
import { createIncrementalCompiler } from "./incremental-compiler.js";
import { readableIssueHint } from "./readable-kind-hint.js";
import { createToolRegistry } from "./tool-registry.js";

const registry = createToolRegistry([
  {
    name: "callApi",
    input: { type: "object", properties: { auth: { type: "string" }, count: { type: "number" } } },
    run: () => 1,
  },
  {
    name: "fmt",
    input: { type: "object", properties: { text: { type: "string" }, count: { type: "number" } } },
    run: () => 1,
  },
]);
const kinds = createKindTable([{ kind: "secrets" }, { kind: "vault" }, { kind: "user" }]);
const extraKinds = { secrets: { apiKey: "sk-1", list: [1] }, vault: { master: "m" }, user: { name: "ann" } };
/** Only callApi.auth may read †secrets, nothing †vault; †user is not scoped (decision 0073's readers). */
const mayRead = (kind: string, tool: string | undefined, parameter: string): boolean =>
  kind === "secrets" ? tool === "callApi" && parameter === "auth" : kind !== "vault";
const scoped = { kinds, context: { extraKinds, mayRead } };
const unscoped = { kinds, context: { extraKinds } };
const said = (diagnostics: readonly Diagnostic[]) => diagnostics.map((d) => [d.code, d.pointer, d.hint]);
const diagnosticsOf = (call: object, options: CompileOptions = scoped) =>
  said(compile([call], registry, options).diagnostics);

describe("hints tell a parameter nothing of a host kind it may not read (context.mayRead, decision 0082)", () => {
  it("a string reading such a kind gets no REF_UNRESOLVED or REF_TYPE_MISMATCH: no key, shape or type of it", () => {
    for (const text of ["†secrets.apiKy", "k={†secrets.apiKy}", "†secrets.zzzzzz", "†secrets.list.total"]) {
      expect(diagnosticsOf({ _tool: "fmt", text }, unscoped)).toHaveLength(1);
      expect(diagnosticsOf({ _tool: "fmt", text })).toEqual([]);
    }
    expect(diagnosticsOf({ _tool: "fmt", count: "†secrets.apiKey" }, unscoped)).toEqual([
      [
        "REF_TYPE_MISMATCH",
        "/0/count",
        'a reference passes the value as it is, with no conversion from text: read a value of type number, or write the value itself (5, not "5")',
      ],
    ]);
    expect(diagnosticsOf({ _tool: "fmt", count: "†secrets.apiKey" })).toEqual([]);
    expect(diagnosticsOf({ _tool: "fmt", text: "†vault.mastr" })).toEqual([]);
    // a call of no known tool (not compiled) may read no scoped kind
    expect(diagnosticsOf({ _tool: "nope", text: "†secrets.apiKy" }, unscoped)).toHaveLength(2);
    expect(diagnosticsOf({ _tool: "nope", text: "†secrets.apiKy" }).map(([code]) => code)).toEqual([
      "TOOL_UNKNOWN",
    ]);
    // the parameters that may read it, and kinds it does not scope, keep their did-you-means
    expect(diagnosticsOf({ _tool: "callApi", auth: "†secrets.apiKy" })).toEqual([
      [
        "REF_UNRESOLVED",
        "/0/auth",
        'did you mean "†secrets.apiKey"? (the secrets context has no value there)',
      ],
    ]);
    expect(diagnosticsOf({ _tool: "fmt", text: "†user.nme" })[0]?.[2]).toMatch(
      /^did you mean "†user.name"\?/,
    );
  });

  it("a bare spelling of such a kind's data is not flagged: no oracle of which keys it holds", () => {
    expect(diagnosticsOf({ _tool: "fmt", text: "secrets.apiKey" }, unscoped)).toEqual([
      ["REF_SUSPICIOUS", "/0/text", 'did you mean "†secrets.apiKey"?'],
    ]);
    expect(diagnosticsOf({ _tool: "fmt", text: "secrets.apiKey" })).toEqual([]);
    expect(diagnosticsOf({ _tool: "fmt", text: "vault.master" })).toEqual([]);
    expect(diagnosticsOf({ _tool: "callApi", auth: "secrets.apiKey" })).toEqual([
      ["REF_SUSPICIOUS", "/0/auth", 'did you mean "†secrets.apiKey"?'],
    ]);
  });

  it("REF_KIND_UNKNOWN names only the kinds the parameter may read", () => {
    expect(diagnosticsOf({ _tool: "fmt", text: "†vaul.master" }, unscoped)[0]?.[2]).toBe(
      'did you mean "vault"?',
    );
    expect(diagnosticsOf({ _tool: "fmt", text: "†vaul.master" })[0]?.[2]).toBe(
      "known kinds: input, state, calls, user",
    );
    expect(diagnosticsOf({ _tool: "fmt", text: "x {†secret.apiKey}" })[0]?.[2]).toBe(
      "known kinds: input, state, calls, user",
    );
    expect(diagnosticsOf({ _tool: "callApi", auth: "†secret.apiKey" })[0]?.[2]).toBe(
      'did you mean "secrets"?',
    );
    expect(diagnosticsOf({ _tool: "fmt", text: "†outputs.a" })[0]?.[2]).toMatch(/^did you mean "†calls.a"\?/);
  });

  it("a streamed call is answered the same way", () => {
    const stream = createIncrementalCompiler(registry, scoped);
    expect(said(stream.addCall({ _tool: "fmt", text: "†secrets.apiKy" }).diagnostics)).toEqual([]);
    expect(said(stream.addCall({ _tool: "fmt", text: "†vaul.x" }).diagnostics)[0]?.[2]).toBe(
      "known kinds: input, state, calls, user",
    );
  });
});

describe("which REF_KIND_UNKNOWN hints are kept is told by the issue's hintKind, not by the hint's words", () => {
  const options = (tool: string) => ({ ...scoped, limits: { maxPathDepth: 32 }, callId: "c", tool });
  const unknownKind = (hint: string, hintKind?: string): LanguageIssue => ({
    code: "REF_KIND_UNKNOWN",
    message: 'unknown kind "outputs"',
    offset: 1,
    hint,
    ...(hintKind === undefined ? {} : { hintKind }),
  });

  it("a hint naming one readable kind is kept whatever it says; any other is made again from the readable kinds", () => {
    const reworded = unknownKind("read †calls.a: a call's output is there", "calls");
    expect(readableIssueHint(reworded, "†outputs.a", options("fmt"), "text")).toBe(reworded.hint);
    const unmarked = unknownKind('did you mean "†calls.a"?');
    expect(readableIssueHint(unmarked, "†outputs.a", options("fmt"), "text")).toBe(
      "known kinds: input, state, calls, user",
    );
    // a hint naming a host kind is kept only for a parameter that may read it
    const secret = unknownKind('did you mean "†secrets.a"?', "secrets");
    expect(readableIssueHint(secret, "†outputs.a", options("callApi"), "auth")).toBe(secret.hint);
    expect(readableIssueHint(secret, "†outputs.a", options("fmt"), "text")).toBe(
      "known kinds: input, state, calls, user",
    );
  });

  it("a call-output spelling keeps the parser's hint, the same as when no kind is scoped", () => {
    for (const kind of ["outputs", "result", "steps", "tool_output"])
      for (const text of [`†${kind}.s[0].url`, `x {†${kind}.s}`]) {
        const hint = diagnosticsOf({ _tool: "fmt", text })[0]?.[2];
        expect(hint).toMatch(/†calls\.s/);
        expect(hint).toBe(diagnosticsOf({ _tool: "fmt", text }, unscoped)[0]?.[2]);
      }
  });
});
