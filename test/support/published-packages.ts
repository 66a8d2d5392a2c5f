import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";

/** The fields of a package.json the publishing tests read. */
export interface PackageJson {
  readonly name: string;
  readonly private?: boolean;
  readonly exports?: unknown;
  readonly bin?: Record<string, string>;
  readonly dependencies?: Record<string, string>;
  readonly peerDependencies?: Record<string, string>;
  readonly types?: string;
  readonly typings?: string;
}

/** Reads a package.json. */
export function readPackageJson(file: string): PackageJson {
  return JSON.parse(readFileSync(file, "utf8")) as PackageJson;
}

const packagesDir = resolve(import.meta.dirname, "../../packages");

/** The repository's packages that are published (not private): their folder and manifest. */
export function publishedPackages(): { readonly dir: string; readonly manifest: PackageJson }[] {
  return readdirSync(packagesDir)
    .map((name) => join(packagesDir, name))
    .filter((dir) => existsSync(join(dir, "package.json")))
    .map((dir) => ({ dir, manifest: readPackageJson(join(dir, "package.json")) }))
    .filter(({ manifest }) => manifest.private !== true);
}
