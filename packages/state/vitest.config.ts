import { isolatingConfig } from "../../vitest.shared.js";

// these files vi.mock a module: each runs in a fresh module graph
export default isolatingConfig([
  "src/memory-log-compaction-skip.test.ts",
  "src/sqlite-native-module.test.ts",
]);
