import { describe, expect, it } from "vitest";
import { exampleTools } from "./__fixtures__/tools.js";
import { compile } from "./compile.js";
import { graphToDot } from "./graph-to-dot.js";
import { graphToJson } from "./graph-to-json.js";
import { graphToMermaid } from "./graph-to-mermaid.js";
import { createToolRegistry } from "./tool-registry.js";

const registry = createToolRegistry(exampleTools);

// A branching call (its failure alternative read by r1) and a fan-out call (each of its two targets read
// by one reader): issue 3's graph export labels branch edges with the alternative and shows fan-out.
const compiled = compile(
  [
    { _tool: "verifyUser", _id: "v", userId: "u", _outputPath: "†state.ok || †state.err" },
    { _tool: "log", _id: "s", message: "m", _outputPath: "†state.a && †state.b" },
    { _tool: "log", _id: "r1", message: "†state.err" },
    { _tool: "log", _id: "ra", message: "†state.a" },
    { _tool: "log", _id: "rb", message: "†state.b" },
  ],
  registry,
);

/** The Mermaid node id of a call (`n<index>_<id>`), read from its node line. */
function mermaidId(text: string, id: string): string {
  const match = new RegExp(`^ {2}(n\\d+_${id})\\["${id} \\(`, "m").exec(text);
  if (match?.[1] === undefined) throw new Error(`no Mermaid node for ${id}`);
  return match[1];
}

describe("graph export: branch edges and fan-out (issue 3)", () => {
  it("compiles without diagnostics", () => {
    expect(compiled.diagnostics).toEqual([]);
  });

  it("JSON: the fan-out call lists both targets in one alternative and has an edge to each target's reader", () => {
    const json = graphToJson(compiled);
    expect(json.nodes.find((node) => node.id === "s")?.targets).toEqual([["†state.a", "†state.b"]]);
    expect(json.nodes.find((node) => node.id === "v")?.targets).toEqual([["†state.ok"], ["†state.err"]]);
    expect([...json.edges].sort()).toEqual([
      ["s", "ra"],
      ["s", "rb"],
      ["v", "r1"],
    ]);
  });

  it("Mermaid: the fan-out node shows both targets, its edges are plain; the branch edge is dotted and names the alternative taken", () => {
    const text = graphToMermaid(compiled);
    const [v, s, r1, ra, rb] = ["v", "s", "r1", "ra", "rb"].map((id) => mermaidId(text, id));
    expect(text).toContain(`${s}["s (log) <br/>→ †state.a && †state.b"]`);
    expect(text).toContain(`${v}["v (verifyUser) <br/>→ †state.ok || †state.err"]`);
    expect(text).toContain(`  ${s} --> ${ra}\n`);
    expect(text).toContain(`  ${s} --> ${rb}\n`);
    expect(text).toContain(`  ${v} -. "†state.err" .-> ${r1}\n`);
    expect(text.match(/-\. /g)).toHaveLength(1);
  });

  it("DOT: the fan-out node shows both targets, its edges are plain; the branch edge is dashed and names the alternative taken", () => {
    const text = graphToDot(compiled);
    expect(text).toContain('  "s" [label="s (log)\\n→ †state.a && †state.b"];\n');
    expect(text).toContain('  "v" [label="v (verifyUser)\\n→ †state.ok || †state.err"];\n');
    expect(text).toContain('  "s" -> "ra";\n');
    expect(text).toContain('  "s" -> "rb";\n');
    expect(text).toContain('  "v" -> "r1" [style=dashed, label="†state.err"];\n');
    expect(text.match(/style=dashed/g)).toHaveLength(1);
  });
});
