import type { Diagnostic, JsonObject, JsonValue } from "@obelisk/core";
import { describe, expect, it } from "vitest";
import { exampleTools } from "./__fixtures__/tools.js";
import { compile } from "./compile.js";
import type { CompileContext } from "./compiled-plan.js";
import { createIncrementalCompiler } from "./incremental-compiler.js";
import { createToolRegistry } from "./tool-registry.js";

const registry = createToolRegistry(exampleTools);
const hits = { results: [{ title: "a" }, { title: "b" }, { title: "c" }], empty: [] };
const outputs: Record<string, JsonValue> = { s: hits };
const context: CompileContext = {
  state: { hits, user: { name: "Ada" } },
  callOutputs: new Set(Object.keys(outputs)),
  callOutput: (id) => {
    const value = outputs[id];
    return value === undefined ? undefined : { value };
  },
};
const log = (message: string): JsonObject => ({ _tool: "log", message });
const shape = (diagnostics: readonly Diagnostic[]) =>
  diagnostics.map((d) => ({ code: d.code, severity: d.severity, pointer: d.pointer, hint: d.hint }));

/** The diagnostics of a one-call plan reading `reference`, batch and streamed (they must agree). */
function diagnosticsOf(reference: string) {
  const batch = compile({ type: "plan", plan: [log(reference)] }, registry, { context }).diagnostics;
  const stream = createIncrementalCompiler(registry, { context });
  stream.addCall(log(reference));
  const streamed = stream.close().diagnostics;
  expect(shape(streamed)).toEqual(shape(batch));
  return shape(batch);
}

const STATE = " (the thread's state has no value there and no call of this plan writes it)";
const STORED = ' (the output stored for call "s" has no value there)';

describe("the did-you-mean goes past a list's index into a known value (decision 0097, review s40 r2 #3)", () => {
  it.each([
    ["†state.hits.results[0].titel", `did you mean "†state.hits.results[0].title"?${STATE}`],
    ["†calls.s.results[1].titel", `did you mean "†calls.s.results[1].title"?${STORED}`],
    [
      "†state.hits.results[5].title",
      `†state.hits.results has 3 items (indexes 0 to 2): e.g. "†state.hits.results[2].title"${STATE}`,
    ],
    [
      "†calls.s.results[3].title",
      `†calls.s.results has 3 items (indexes 0 to 2): e.g. "†calls.s.results[2].title"${STORED}`,
    ],
    ["†state.hits.empty[0]", `†state.hits.empty is an empty list: it has no item to read${STATE}`],
    [
      "†state.user.name.first",
      `†state.user.name is a string, with no "first" below it: read "†state.user.name" itself${STATE}`,
    ],
    [
      "†state.user.name[0]",
      `†state.user.name is a string, with no [0] below it: read "†state.user.name" itself${STATE}`,
    ],
  ])("%s", (reference, hint) => {
    expect(diagnosticsOf(reference)).toEqual([
      { code: "REF_UNRESOLVED", severity: "error", pointer: "/plan/0/message", hint },
    ]);
  });
});

describe("an index past a list's end suggests a last item whose rest resolves (decision 0101, review s40 rev1 #5)", () => {
  const search = {
    results: [
      { title: "a", link: "l1" },
      { title: "b", link: "l2" },
      { title: "c", link: "l3", tags: ["z"] },
    ],
  };
  const known: CompileContext = {
    state: { search },
    callOutputs: new Set(["search"]),
    callOutput: (id) => (id === "search" ? { value: search } : undefined),
  };
  const hintOf = (reference: string) => {
    const batch = compile({ type: "plan", plan: [log(reference)] }, registry, { context: known }).diagnostics;
    const stream = createIncrementalCompiler(registry, { context: known });
    stream.addCall(log(reference));
    expect(shape(stream.close().diagnostics)).toEqual(shape(batch));
    expect(batch.map((d) => d.code)).toEqual(["REF_UNRESOLVED"]);
    return batch[0]?.hint?.replace(/ \((the thread's state|the output stored)[^)]*\)$/, "");
  };
  const items = "has 3 items (indexes 0 to 2)";

  it.each([
    // the rest resolves in the last item: as before
    [
      "†calls.search.results[5].title",
      `†calls.search.results ${items}: e.g. "†calls.search.results[2].title"`,
    ],
    // a name the last item lacks: its nearest name, said
    [
      "†calls.search.results[5].titel",
      `†calls.search.results ${items}: e.g. "†calls.search.results[2].title" (†calls.search.results[2] has no "titel")`,
    ],
    // an index past the end below: the last one there, said
    [
      "†state.search.results[9].tags[4]",
      `†state.search.results ${items}: e.g. "†state.search.results[2].tags[0]" (†state.search.results[2].tags has 1 item)`,
    ],
    // no near name: the item itself, with its names (the suggestion was "…[2].url", unresolved again)
    [
      "†calls.search.results[5].url",
      `†calls.search.results ${items}; the last one has no .url: read "†calls.search.results[2]" (its names: "title", "link", "tags")`,
    ],
    [
      "†state.search.results[3].title.first",
      `†state.search.results ${items}; the last one has no .title.first: read "†state.search.results[2].title" (it is a string)`,
    ],
  ])("%s", (reference, hint) => {
    expect(hintOf(reference)).toBe(hint);
  });
});
