import { defineConfig } from "vitest/config";

const include = ["src/**/*.test.ts", "*.test.ts", "**/*.test.ts"];
const exclude = ["**/node_modules/**", "**/dist/**"];

/**
 * Shared vitest settings: packages are tested from source through the `@obelisk/source` export condition.
 *
 * `isolate: false`: a package's test files share one module graph in its worker, so each source module is
 * evaluated once per package instead of once per test file (core's tests: 48 CPU-seconds -> 16; see
 * docs/performance/test-suite.md). A test file must therefore leave no global behind: fake timers and
 * spies are restored in `afterEach`/`finally`, and a file that replaces a module with `vi.mock` (or reads
 * a module's once-per-process state) is named in its package's config through {@link isolatingConfig},
 * which runs it in a fresh module graph.
 */
export const sharedConfig = defineConfig({
  resolve: { conditions: ["@obelisk/source"] },
  ssr: { resolve: { conditions: ["@obelisk/source"] } },
  test: {
    include,
    exclude,
    // a hang guard, not a speed check: under the whole suite on a loaded 2-core machine a 2 s property
    // test took over 30 s (engine-streaming-differential, stop 30's clean-clone run)
    testTimeout: 120_000,
    isolate: false,
  },
});

/**
 * {@link sharedConfig} for a package some of whose test files `vi.mock` a module, or read a module's
 * once-per-process state: those `files` run each in a fresh module graph (a mocked module must not be what
 * another file imports, nor the real one what the mocking file sees; state another file set must not be
 * what the reading file sees first), the others share one.
 */
export function isolatingConfig(files: readonly string[]): typeof sharedConfig {
  // each project extends this config, whose arrays it would add to: include and exclude are the projects'
  const { include: _include, exclude: _exclude, ...test } = sharedConfig.test ?? {};
  return defineConfig({
    ...sharedConfig,
    test: {
      ...test,
      projects: [
        { extends: true, test: { name: "shared", isolate: false, include, exclude: [...exclude, ...files] } },
        { extends: true, test: { name: "isolated", isolate: true, include: [...files], exclude } },
      ],
    },
  });
}
