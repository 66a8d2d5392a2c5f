// The spec's own tool form (SPEC §9): JSON Schema objects with a `_tool` const, no `run`; their
// implementations are the module's `implementations` export, by tool name. No import needed.
export default [
  {
    type: "object",
    description: "Checks a user id",
    properties: {
      _tool: { const: "verifyUser" },
      userId: { type: "string" },
      _outputPath: { pattern: "^†state\\.user\\." },
    },
    required: ["_tool", "userId"],
    additionalProperties: false,
  },
  {
    type: "object",
    description: "Greets a verified user",
    properties: { _tool: { const: "greet" }, user: { type: "object" } },
    required: ["_tool", "user"],
  },
];

export const implementations = {
  verifyUser: async ({ userId }) => ({ id: userId, ok: true }),
  greet: ({ user }) => `Hello ${user.id}`,
};
