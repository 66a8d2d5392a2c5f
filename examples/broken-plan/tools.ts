import { defineTool } from "obelisk";
import { z } from "zod";

/** Two small tools, so that the broken plan can get every kind of call wrong. */
export default [
  defineTool({
    name: "greetUser",
    description: "Builds a greeting for a user",
    input: z.object({ name: z.string(), times: z.number().int().optional() }).strict(),
    output: z.object({ message: z.string() }),
    run: ({ name }) => ({ message: `Hello, ${name}!` }),
  }),
  defineTool({
    name: "countWords",
    description: "Counts the words of a text",
    input: z.object({ text: z.string() }),
    output: z.number(),
    run: ({ text }) => text.split(/\s+/).filter(Boolean).length,
  }),
];
