// A CommonJS tools module that sets `exports.default` by hand.
exports.default = [
  {
    name: "shout",
    description: "Upper-cases its text",
    input: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
    run: ({ text }) => text.toUpperCase(),
  },
];
