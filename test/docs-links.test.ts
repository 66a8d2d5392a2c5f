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

/** Relative link targets of a Markdown text, outside fenced code (`[text](target)`). */
function relativeLinks(markdown: string): string[] {
  const prose = markdown.replace(/```[\s\S]*?```/g, "");
  const targets: string[] = [];
  for (const match of prose.matchAll(/\]\(([^)\s]+)\)/g)) {
    const target = match[1] as string;
    if (!/^(?:[a-z]+:|#)/i.test(target)) targets.push(target);
  }
  return targets;
}

describe("documentation links", () => {
  it("finds relative links and leaves out web addresses, anchors and code", () => {
    const text = "[a](docs/x.md) [b](https://e.org) [c](#top) [d](../y.md#part)\n```\n[e](no.md)\n```";
    expect(relativeLinks(text)).toEqual(["docs/x.md", "../y.md#part"]);
  });

  it("every relative link of every README and doc names a file or folder that exists", () => {
    const files = markdownFiles(root);
    expect(files.length).toBeGreaterThan(20);
    const broken: string[] = [];
    for (const file of files) {
      for (const target of relativeLinks(readFileSync(file, "utf8"))) {
        const path = join(dirname(file), decodeURI(target.split("#")[0] as string));
        if (!existsSync(path)) broken.push(`${relative(root, file)} → ${target}`);
      }
    }
    expect(broken).toEqual([]);
  });
});
