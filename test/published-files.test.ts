import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { publishedPackages } from "./support/published-packages.js";

// What `npm publish` would put in each package's tarball (`npm pack --dry-run`, scripts skipped, so the
// current dist is listed): what a consumer installs, and nothing that only the repository needs.

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

const published = publishedPackages();

const REPOSITORY_ONLY = /(^|\/)__fixtures__\/|\.(test|bench)\.[cm]?[jt]s(\.map)?$|\.tsbuildinfo$/;

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

  it("holds no tests, benchmarks or fixtures", () => {
    expect(files.filter((file) => REPOSITORY_ONLY.test(file))).toEqual([]);
  });
});
