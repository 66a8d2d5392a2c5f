import type { Diagnostic } from "@obelisk/core";
import type { CliIo } from "./cli-io.js";

/** Prints registration warnings (a tool name defined twice: the later definition wins) on stderr. */
export function printRegistryWarnings(io: CliIo, warnings: readonly Diagnostic[]): void {
  for (const warning of warnings) io.stderr.write(`warning [${warning.code}] ${warning.message}\n`);
}
