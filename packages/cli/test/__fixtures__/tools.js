// A plain `.js` tools module (ESM: this package is "type": "module") default-exporting an array of tools.
export default [
  {
    name: "shout",
    description: "Upper-cases its text",
    input: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
    run: ({ text }) => text.toUpperCase(),
  },
];
