// An object of tools by name whose one tool is named `default` (not a CommonJS `exports.default`).
export default {
  default: {
    description: "the default tool",
    input: { type: "object", properties: { v: {} } },
    run: async ({ v }) => v,
  },
};
