import type { CompiledCall, ParamReference } from "@obelisk/compiler";
import { canonicalJson, type JsonValue, type Path, parameterExpressions, pathsOverlap } from "@obelisk/core";
import type { CallRecord } from "@obelisk/state";

/**
 * Whether a resumed call's own record of the chain is this call having completed before the interruption
 * (decision 0012): the same key; or the same tool, output path and method with parameters that differ only
 * where they read a path the call itself writes. Such a parameter resolves on resume to the call's own
 * result (a counter `n: "†state.count || †input.zero"` into `†state.count` gave `n: 1` instead of `n: 0`),
 * so the key cannot match, and running the call again would apply it twice. Any other difference (an
 * upstream `fresh` or `_rerun` call that ran again, a value another run or a person changed) runs it again.
 */
export function completedBefore(
  own: CallRecord,
  call: CompiledCall,
  hash: string,
  params: JsonValue,
): boolean {
  if (own.callHash === hash) return true;
  if (own.tool !== call.tool || own.outputMethod !== call.outputMethod) return false;
  if (own.outputPath !== call.outputPath?.text || own.params === undefined) return false;
  const selfRead = call.references.filter((reference) => readsOwnTarget(reference, call));
  if (selfRead.length === 0) return false;
  return canonicalJson(masked(own.params, selfRead)) === canonicalJson(masked(params, selfRead));
}

/** True when a parameter's expression reads a path one of the call's own output targets overlaps. */
function readsOwnTarget(reference: ParamReference, call: CompiledCall): boolean {
  const targets = call.outputPath?.alternatives.flat() ?? [];
  if (targets.length === 0) return false;
  return parameterExpressions(reference.value).some((expression) =>
    expression.alternatives.some((gate) =>
      gate.some((operand) =>
        targets.some((target) => target.kind === operand.kind && pathsOverlap(target.path, operand.path)),
      ),
    ),
  );
}

/** A copy of `params` with the value at each of the references' locations replaced by null. */
function masked(params: JsonValue, references: readonly ParamReference[]): JsonValue {
  const copy = JSON.parse(JSON.stringify(params)) as JsonValue;
  for (const reference of references) setNull(copy, reference.location);
  return copy;
}

function setNull(root: JsonValue, location: Path): void {
  let node: unknown = root;
  for (let at = 0; at < location.length - 1; at++) {
    if (typeof node !== "object" || node === null) return;
    node = (node as Record<string | number, unknown>)[location[at] as string | number];
  }
  const last = location[location.length - 1];
  if (last !== undefined && typeof node === "object" && node !== null)
    (node as Record<string | number, unknown>)[last as string | number] = null;
}
