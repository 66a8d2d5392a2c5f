import type { CompiledCall } from "@obelisk/compiler";

/** Calls `visit` with each path a call may write: its targets, or `†calls.<id>` when it has no output path. */
export function forEachTarget(
  call: CompiledCall,
  visit: (kind: string, path: readonly (string | number)[]) => void,
): void {
  const alternatives = call.outputPath?.alternatives;
  if (alternatives === undefined) {
    visit("calls", [call.id]);
    return;
  }
  for (const targets of alternatives) for (const target of targets) visit(target.kind, target.path);
}
