import { defineConfig } from "vitest/config";

/** Shared vitest settings: packages are tested from source through the `@obelisk/source` export condition. */
export const sharedConfig = defineConfig({
  resolve: { conditions: ["@obelisk/source"] },
  ssr: { resolve: { conditions: ["@obelisk/source"] } },
  test: {
    include: ["src/**/*.test.ts", "*.test.ts", "**/*.test.ts"],
    exclude: ["**/node_modules/**", "**/dist/**"],
    testTimeout: 30_000,
  },
});
