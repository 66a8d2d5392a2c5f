// A tool written for another framework: its implementation under `execute`, not `run`.
export default [{ name: "x", input: { type: "object" }, execute: () => 1 }];
