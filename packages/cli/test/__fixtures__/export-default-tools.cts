// @ts-nocheck: `export default` in a CommonJS file is what this fixture is about (verbatimModuleSyntax refuses it)
// A CommonJS TypeScript tools module written with `export default` (compiled to `exports.default`).
const tools = [
  {
    name: "shout",
    description: "Upper-cases its text",
    input: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
    run: ({ text }: { text: string }): string => text.toUpperCase(),
  },
];
export default tools;
