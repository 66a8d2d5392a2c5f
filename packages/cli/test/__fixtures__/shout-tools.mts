// An ES module TypeScript tools module (`.mts`) built with `defineTool` from the `obelisk` package.
import { defineTool } from "obelisk";

const suffix: string = "!";

export default [
  defineTool({
    name: "shout",
    description: "Upper-cases its text",
    input: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
    run: (args) => `${String(args.text).toUpperCase()}${suffix}`,
  }),
];
