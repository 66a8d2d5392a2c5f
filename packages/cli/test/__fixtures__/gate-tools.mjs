// A tool that holds its run until the test opens the gate (in-process tests only).
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
];
