import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { CliIo } from "../src/cli-io.js";
import { main } from "../src/main.js";
import { fixture, ROOT, tempDir } from "./cli-harness.js";

/** The README's `json` example that holds a `graph` (the `validate --format json` shape). */
function documentedValidateJson(): { graph: { nodes: Record<string, unknown>[]; edges: unknown[] } } {
  const readme = readFileSync(join(ROOT, "packages/cli/README.md"), "utf8");
  const blocks = [...readme.matchAll(/^```json\n([\s\S]*?)^```/gm)].map((m) => m[1] ?? "");
  const block = blocks.find((text) => text.includes('"graph"'));
  if (block === undefined) throw new Error("no json example with a graph in the CLI README");
  return JSON.parse(block.replaceAll("…", ""));
}

describe("the CLI README's validate --format json example", () => {
  it("documents the graph nodes with the keys the command prints", async () => {
    let stdout = "";
    const io: CliIo = {
      stdout: { write: (text: string) => (stdout += text) },
      stderr: { write: () => true },
      env: {},
      cwd: tempDir(),
    };
    const args = ["validate", fixture("failing-plan.json"), "--tools", fixture("tools.mjs")];
    expect(await main([...args, "--store", "memory", "--format", "json"], io)).toBe(0);
    const printed = JSON.parse(stdout) as { graph: { nodes: Record<string, unknown>[] } };
    const documented = documentedValidateJson();
    const keys = (node: Record<string, unknown> | undefined) => Object.keys(node ?? {}).sort();
    expect(keys(documented.graph.nodes[0])).toEqual(keys(printed.graph.nodes[0]));
    for (const node of documented.graph.nodes) {
      expect(typeof node.criticalPath).toBe(typeof printed.graph.nodes[0]?.criticalPath);
      expect(Array.isArray(node.targets) && node.targets.every(Array.isArray)).toBe(true);
    }
  });
});
