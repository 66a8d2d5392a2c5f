import { isolatingConfig } from "../../vitest.shared.js";

// these files vi.mock a module, or read a module's once-per-process state: each runs in a fresh module graph
export default isolatingConfig([
  "src/agent-tools-run-once.test.ts",
  "src/engine-automatic-ids.test.ts",
  "src/engine-record-hash-digest.test.ts",
  "src/keep-run-shapes.test.ts",
]);
