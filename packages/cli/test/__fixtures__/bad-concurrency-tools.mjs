// A tool definition the engine refuses (createEngine: concurrency must be a positive number).
export default [
  { name: "shout", description: "shout", input: { type: "object" }, concurrency: -3, run: async () => 1 },
];
