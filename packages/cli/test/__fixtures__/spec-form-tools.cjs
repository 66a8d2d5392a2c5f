// spec-form-tools.mjs as a hand-written CommonJS module: exports.default is the tools, exports.implementations
// their implementations by tool name.
exports.default = [
  {
    type: "object",
    properties: {
      _tool: { const: "verifyUser" },
      userId: { type: "string" },
      _outputPath: { pattern: "^†state\\.user\\." },
    },
    required: ["_tool", "userId"],
  },
  {
    type: "object",
    properties: { _tool: { const: "greet" }, user: { type: "object" } },
    required: ["_tool"],
  },
];
exports.implementations = {
  verifyUser: async ({ userId }) => ({ id: userId, ok: true }),
  greet: ({ user }) => `Hello ${user.id}`,
};
