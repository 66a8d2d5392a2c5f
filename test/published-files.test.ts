import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";

// What `npm publish` would put in each package's tarball (`npm pack --dry-run`, scripts skipped, so the
// current dist is listed): what a consumer installs, and nothing that only the repository needs.

const packagesDir = resolve(import.meta.dirname, "../packages");

interface Manifest {
  readonly name: string;
  readonly private?: boolean;
  readonly exports?: unknown;
  readonly bin?: Record<string, string>;
}

/** Every file target under a package's "exports" (conditions nest), without the repository-only condition. */
function exportTargets(exports: unknown): string[] {
  if (typeof exports === "string") return [exports];
  if (typeof exports !== "object" || exports === null) return [];
  return Object.entries(exports).flatMap(([key, value]) =>
    key === "@obelisk/source" ? [] : exportTargets(value),
  );
}

function packedFiles(dir: string): string[] {
  const output = execFileSync("npm", ["pack", "--dry-run", "--ignore-scripts", "--json"], {
    cwd: dir,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "ignore"],
  });
  const [packed] = JSON.parse(output) as [{ files: { path: string }[] }];
  return packed.files.map((file) => file.path);
}

const published = readdirSync(packagesDir)
  .map((name) => join(packagesDir, name))
  .map((dir) => ({ dir, manifest: JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as Manifest }))
  .filter(({ manifest }) => manifest.private !== true);

const REPOSITORY_ONLY =
  /(^|\/)(__fixtures__|conformance)\/|\.(test|bench)\.[cm]?[jt]s(\.map)?$|\.tsbuildinfo$/;

describe.each(published)("the $manifest.name tarball", ({ dir, manifest }) => {
  const files = packedFiles(dir);

  it("holds its LICENSE, README and package.json", () => {
    expect(files).toEqual(expect.arrayContaining(["LICENSE", "README.md", "package.json"]));
  });

  it("holds every file its exports and bin name", () => {
    const targets = [...exportTargets(manifest.exports), ...Object.values(manifest.bin ?? {})];
    expect(targets.length).toBeGreaterThan(0);
    const missing = targets
      .map((target) => target.replace(/^\.\//, ""))
      .filter((target) => !files.includes(target));
    expect(missing).toEqual([]);
  });

  it("holds no tests, benchmarks, fixtures or conformance cases", () => {
    expect(files.filter((file) => REPOSITORY_ONLY.test(file))).toEqual([]);
  });
});
