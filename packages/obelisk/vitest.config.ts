import { isolatingConfig } from "../../vitest.shared.js";

// these files vi.mock a module: each runs in a fresh module graph
export default isolatingConfig([
  "src/agent-tools-run-once.test.ts",
  "src/engine-automatic-ids.test.ts",
  "src/engine-record-hash-digest.test.ts",
]);
