import { ObeliskError } from "@obelisk/core";

/**
 * The error reported when a tools module called `process.exit(code)` once it had loaded, outside a run — a
 * timer it left running, while `validate`, `graph` or `schema` work, before a run starts or after it ended
 * (its load and a run report their own: `load-tools.ts`, `run-plan.ts`). `ended`: the command had finished
 * and written its output; otherwise it was cut short where it stood.
 */
export function toolsModuleExited(file: string, code: number, ended: boolean): ObeliskError {
  const when = ended
    ? "as the command ended (its output is complete)"
    : "while the command was still running: the process ends here, and the command did not finish";
  return new ObeliskError("TOOL_ERROR", `tools module ${file} called process.exit(${code}) ${when}`, {
    hint: "a tools module exports its tools and a tool returns its value or throws its error: neither may end the process, nor leave a timer that does",
  });
}
