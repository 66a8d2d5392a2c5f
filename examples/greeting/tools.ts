import { defineTool } from "obelisk";
import { z } from "zod";

/** The smallest tools module: one tool that greets a user by name. */
export default [
  defineTool({
    name: "greetUser",
    description: "Builds a greeting for a user",
    input: z.object({ name: z.string().min(1) }),
    output: z.object({ message: z.string() }),
    run: ({ name }) => ({ message: `Hello, ${name}!` }),
  }),
];
