// Tools given as named exports, with no default export (s32 L7): each export that is a tool is one.
import { defineTool } from "obelisk";

export const shout = defineTool({
  name: "shout",
  description: "Upper-cases its text",
  input: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
  run: (args) => `${String(args.text).toUpperCase()}!`,
});

export const whisper = {
  name: "whisper",
  description: "Lower-cases its text",
  input: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
  run: (args) => String(args.text).toLowerCase(),
};

// not tools: left alone
export const VERSION = 3;
export function helper() {
  return "help";
}
