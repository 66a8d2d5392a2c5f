// A tool that holds its run until the test opens the gate (in-process tests only), and one that does not.
export default [
  {
    name: "hold",
    description: "waits for globalThis.obeliskTestGate",
    input: { type: "object" },
    run: async () => {
      globalThis.obeliskTestStarted?.();
      await globalThis.obeliskTestGate;
      return "held";
    },
  },
  {
    name: "echo",
    description: "returns its text parameter (or done)",
    input: { type: "object" },
    run: async (args) => args.text ?? "done",
  },
];
