// A CommonJS TypeScript tools module (`.cts`) that requires another `.cts` (tsx's CommonJS loader).
const { upperCase } = require("./upper-case.cts") as { upperCase: (text: string) => string };

module.exports = [
  {
    name: "shout",
    description: "Upper-cases its text",
    input: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
    run: ({ text }: { text: string }) => upperCase(text),
  },
];
