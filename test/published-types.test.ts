import { existsSync, readFileSync } from "node:fs";
import { builtinModules } from "node:module";
import { dirname, join, relative, resolve } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { type PackageJson, publishedPackages, readPackageJson } from "./support/published-packages.js";

// A consumer's compiler reads every declaration file a package's "exports" reach (skipLibCheck only skips
// checking them, not resolving their imports). A package whose published types import a module that only
// a devDependency provides types for (as @obelisk/state once did with better-sqlite3) fails the
// consumer's typecheck with TS7016 under skipLibCheck: false.

const packagesDir = resolve(import.meta.dirname, "../packages");

/** Every "types" target under a package's "exports" (conditions nest). */
function typesEntries(exports: unknown): string[] {
  if (typeof exports !== "object" || exports === null) return [];
  return Object.entries(exports).flatMap(([key, value]) =>
    key === "types" && typeof value === "string" ? [value] : typesEntries(value),
  );
}

/** The package name of a bare specifier (`@scope/name/sub` → `@scope/name`). */
function packageNameOf(specifier: string): string {
  const parts = specifier.split("/");
  return specifier.startsWith("@") ? parts.slice(0, 2).join("/") : (parts[0] as string);
}

/** The declaration file a relative import of a .d.ts names. */
function declarationFileOf(fromFile: string, specifier: string): string | undefined {
  const base = resolve(dirname(fromFile), specifier);
  const candidates = [base.replace(/\.js$/, ".d.ts"), `${base}.d.ts`, join(base, "index.d.ts")];
  return candidates.find((candidate) => existsSync(candidate));
}

/** Bare module specifiers the published declaration files reach, with the file importing each. */
function bareImportsOfTypes(
  packageDir: string,
  manifest: PackageJson,
): { file: string; specifier: string }[] {
  const pending = typesEntries(manifest.exports).map((entry) => resolve(packageDir, entry));
  const seen = new Set<string>();
  const found: { file: string; specifier: string }[] = [];
  while (pending.length > 0) {
    const file = pending.pop() as string;
    if (seen.has(file)) continue;
    seen.add(file);
    const info = ts.preProcessFile(readFileSync(file, "utf8"), true, true);
    const specifiers = [
      ...info.importedFiles.map((reference) => reference.fileName),
      ...info.typeReferenceDirectives.map((reference) => reference.fileName),
    ];
    for (const specifier of specifiers) {
      if (specifier.startsWith(".")) {
        const target = declarationFileOf(file, specifier);
        if (target === undefined)
          throw new Error(`${file}: cannot find the declaration file of ${specifier}`);
        pending.push(target);
      } else found.push({ file: relative(packageDir, file), specifier });
    }
  }
  return found;
}

/** The manifest of an installed package, found the way Node walks up node_modules. */
function installedManifest(fromDir: string, name: string): PackageJson | undefined {
  for (let dir = fromDir; ; dir = dirname(dir)) {
    const file = join(dir, "node_modules", name, "package.json");
    if (existsSync(file)) return readPackageJson(file);
    if (dirname(dir) === dir) return undefined;
  }
}

/** True when a package ships its own declarations (no @types package needed). */
function shipsOwnTypes(fromDir: string, name: string): boolean {
  const manifest = installedManifest(fromDir, name);
  if (manifest === undefined) return false;
  return (
    manifest.types !== undefined ||
    manifest.typings !== undefined ||
    typesEntries(manifest.exports).length > 0
  );
}

const isBuiltin = (name: string) => name.startsWith("node:") || builtinModules.includes(name);

/** Why a bare import of a published declaration file would fail in a consumer's project, if it would. */
function missingForConsumer(
  packageDir: string,
  manifest: PackageJson,
  specifier: string,
): string | undefined {
  const name = packageNameOf(specifier);
  if (isBuiltin(name) || name === manifest.name) return undefined;
  const installed = { ...manifest.dependencies, ...manifest.peerDependencies };
  if (!(name in installed)) return `${name} is not a dependency`;
  if (shipsOwnTypes(packageDir, name)) return undefined;
  const typesPackage = `@types/${name.startsWith("@") ? name.slice(1).replace("/", "__") : name}`;
  return typesPackage in installed
    ? undefined
    : `${name} has no types of its own and ${typesPackage} is not a dependency`;
}

const published = publishedPackages();

describe("published declaration files", () => {
  it("cover every published package", () => {
    expect(published.map(({ manifest }) => manifest.name).sort()).toEqual([
      "@obelisk/cli",
      "@obelisk/compiler",
      "@obelisk/core",
      "@obelisk/scheduler",
      "@obelisk/state",
      "obelisk",
    ]);
  });

  for (const { dir, manifest } of published) {
    it(`${manifest.name}: import only what a consumer installs with it`, () => {
      const imports = bareImportsOfTypes(dir, manifest);
      const problems = imports.flatMap(({ file, specifier }) => {
        const why = missingForConsumer(dir, manifest, specifier);
        return why === undefined ? [] : [`${file} imports "${specifier}": ${why}`];
      });
      expect(problems).toEqual([]);
    });
  }

  it("flags a devDependency's types reached from the exports", () => {
    const manifest: PackageJson = { name: "@obelisk/state", dependencies: { "better-sqlite3": "12" } };
    expect(missingForConsumer(join(packagesDir, "state"), manifest, "better-sqlite3")).toBe(
      "better-sqlite3 has no types of its own and @types/better-sqlite3 is not a dependency",
    );
    expect(missingForConsumer(join(packagesDir, "state"), manifest, "graphology")).toBe(
      "graphology is not a dependency",
    );
    expect(missingForConsumer(join(packagesDir, "state"), manifest, "node:fs")).toBeUndefined();
  });
});
