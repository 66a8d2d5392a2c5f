import type { ToolDefinition } from "../index.js";

/**
 * A tool `step` that records the keys it ran; a call with `hang: true` never returns while `hangs` (the
 * engine that dies or hangs), and returns at once otherwise (the engine that takes over).
 */
export function steps(hangs = false): { readonly tool: ToolDefinition; readonly ran: string[] } {
  const ran: string[] = [];
  const tool: ToolDefinition = {
    name: "step",
    run: (args) => {
      const { key, hang } = args as { key: string; hang?: boolean };
      ran.push(key);
      return hangs && hang === true ? new Promise(() => {}) : key;
    },
  };
  return { tool, ran };
}
