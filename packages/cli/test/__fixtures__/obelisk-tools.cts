// A CommonJS TypeScript tools module that imports obelisk (an ES module package) and exports implementations.
import obelisk = require("obelisk");

const shout = obelisk.defineTool({
  name: "shout",
  description: "Upper-cases its text",
  input: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
  run: (args) => String(args.text).toUpperCase(),
});

module.exports = [shout];
