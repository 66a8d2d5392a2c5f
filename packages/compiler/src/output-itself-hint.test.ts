import type { Diagnostic } from "@obelisk/core";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { exampleTools } from "./__fixtures__/tools.js";
import { compile } from "./compile.js";
import { defineTool } from "./tool-definition.js";
import { createToolRegistry } from "./tool-registry.js";

const search = defineTool({
  name: "search",
  input: z.object({ query: z.string() }),
  output: z.array(z.object({ title: z.string(), url: z.string() })),
  run: () => [],
});
const registry = createToolRegistry([...exampleTools, search]);
const shown = (diagnostics: readonly Diagnostic[]) =>
  diagnostics.map((d) => ({ code: d.code, severity: d.severity, pointer: d.pointer, hint: d.hint }));
const read = (write: object, reference: string) =>
  shown(
    compile(
      {
        type: "plan",
        plan: [
          { _tool: "search", _id: "s", query: "q", ...write },
          { _tool: "log", message: reference },
        ],
      },
      registry,
      { context: { state: {} } },
    ).diagnostics,
  );
const unresolved = (hint: string) => [
  {
    code: "REF_UNRESOLVED",
    severity: "error",
    pointer: "/plan/1/message",
    hint: expect.stringMatching(hint),
  },
];

describe("a word added to mean the call's output (REF_UNRESOLVED)", () => {
  it("†calls.s.output of a call whose output is a list: read †calls.s", () => {
    expect(read({}, "†calls.s.output")).toEqual(
      unresolved('^†calls\\.s is the output itself: read "†calls\\.s" \\(call "s" writes'),
    );
    expect(read({}, "{†calls.s.result}")[0]?.hint).toMatch(/^†calls\.s is the output itself/);
  });

  it("†state.hits.data below a state path a call writes whole", () => {
    expect(read({ _outputPath: "†state.hits" }, "†state.hits.data")).toEqual(
      unresolved('^†state\\.hits is the output itself: read "†state\\.hits"'),
    );
  });

  it("another missing name keeps the list hint", () => {
    expect(read({}, "†calls.s.title")[0]?.hint).toMatch(/^†calls\.s is a list: read one of its items/);
  });
});

describe("kinds and syntax models borrow", () => {
  it("†outputs.s / †steps.s / †results.s: did you mean †calls.s (REF_KIND_UNKNOWN)", () => {
    for (const kind of ["outputs", "steps", "results"]) {
      expect(read({}, `†${kind}.s[0].url`)).toEqual([
        {
          code: "REF_KIND_UNKNOWN",
          severity: "error",
          pointer: "/plan/1/message",
          hint: `did you mean "†calls.s[0].url"? (a call's output is read as †calls.<id>)`,
        },
      ]);
    }
  });

  it("†state.hits[*]: there is no map over a list (REF_SYNTAX)", () => {
    expect(read({ _outputPath: "†state.hits" }, "†state.hits[*]")).toEqual([
      {
        code: "REF_SYNTAX",
        severity: "error",
        pointer: "/plan/1/message",
        hint: "there is no map over a list: write one call per item (†state.hits[0], †state.hits[1], …), or pass the whole list †state.hits to a tool that loops",
      },
    ]);
  });
});
