import { defineTool } from "../index.js";

/** A tool (`mutate`) that tries to change the value given as `target` and says in `attempts` whether JavaScript let it. */
export function mutatingTool(attempts: string[]) {
  return defineTool({
    name: "mutate",
    run: (args: unknown) => {
      const target = (args as { target: Record<string, unknown> | unknown[] }).target;
      try {
        if (Array.isArray(target)) target.push("mutated");
        else target.mutated = true;
        attempts.push("changed");
      } catch (error) {
        attempts.push(error instanceof TypeError ? "refused" : "other");
      }
      return "done";
    },
  });
}
