import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const SKIPPED = new Set(["node_modules", "dist", "coverage"]);

/** Every Markdown file of the repository (not dependencies, builds or dot-folders). */
function markdownFiles(folder: string, out: string[] = []): string[] {
  for (const name of readdirSync(folder)) {
    if (SKIPPED.has(name) || name.startsWith(".")) continue;
    const path = join(folder, name);
    if (statSync(path).isDirectory()) markdownFiles(path, out);
    else if (name.endsWith(".md")) out.push(path);
  }
  return out;
}

/** Relative link targets of a Markdown text (`#anchor` ones included), outside fenced code (`[text](target)`). */
function relativeLinks(markdown: string): string[] {
  const prose = markdown.replace(/```[\s\S]*?```/g, "");
  const targets: string[] = [];
  for (const match of prose.matchAll(/\]\(([^)\s]+)\)/g)) {
    const target = match[1] as string;
    if (!/^[a-z]+:/i.test(target)) targets.push(target);
  }
  return targets;
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");
}

/** The anchors of a Markdown file's headings (outside fenced code; a repeated one gets `-1`, `-2`, …). */
function anchorsOf(markdown: string): Set<string> {
  const prose = markdown.replace(/```[\s\S]*?```/g, "");
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const match of prose.matchAll(/^#{1,6}\s+(.+)$/gm)) {
    const base = slug(match[1] as string);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}

describe("documentation links", () => {
  it("finds relative links and anchors, and leaves out web addresses and code", () => {
    const text = "[a](docs/x.md) [b](https://e.org) [c](#top) [d](../y.md#part)\n```\n[e](no.md)\n```";
    expect(relativeLinks(text)).toEqual(["docs/x.md", "#top", "../y.md#part"]);
  });

  it("finds the anchors GitHub gives headings", () => {
    const anchors = anchorsOf(
      "# Obelisk\n## `--input` and `--value` JSON\n## Limits\n## Limits\n```\n# not one\n```",
    );
    expect([...anchors]).toEqual(["obelisk", "--input-and---value-json", "limits", "limits-1"]);
  });

  it("every relative link of every README and doc names a file that exists, and a heading of it", () => {
    const files = markdownFiles(root);
    expect(files.length).toBeGreaterThan(20);
    const broken: string[] = [];
    for (const file of files) {
      for (const target of relativeLinks(readFileSync(file, "utf8"))) {
        const [pathPart, anchor] = target.split("#") as [string, string | undefined];
        const path = pathPart === "" ? file : join(dirname(file), decodeURI(pathPart));
        if (!existsSync(path)) broken.push(`${relative(root, file)} → ${target}`);
        else if (
          anchor !== undefined &&
          path.endsWith(".md") &&
          !anchorsOf(readFileSync(path, "utf8")).has(decodeURIComponent(anchor))
        )
          broken.push(`${relative(root, file)} → ${target} (no such heading)`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('every "SPEC §n" a doc cites is a section of docs/spec.md', () => {
    const sections = new Set(
      [...readFileSync(join(root, "docs/spec.md"), "utf8").matchAll(/^## (\d+)\. /gm)].map((m) => m[1]),
    );
    expect(sections.size).toBeGreaterThan(10);
    const unknown: string[] = [];
    for (const file of markdownFiles(root)) {
      for (const match of readFileSync(file, "utf8").matchAll(/SPEC §(\d+)/g)) {
        if (!sections.has(match[1] as string)) unknown.push(`${relative(root, file)}: ${match[0]}`);
      }
    }
    expect(unknown).toEqual([]);
  });
});
