// Tools whose strict schema reads a null as absent (decision 0028, amended): `note`'s optional `extra` takes
// any value, and `ask` is latent without an output schema (its `_output: null` defers the call).
export default [
  {
    name: "note",
    input: {
      type: "object",
      properties: { text: { type: "string" }, extra: {} },
      required: ["text"],
    },
    run: ({ text }) => text,
  },
  { name: "ask" },
];
