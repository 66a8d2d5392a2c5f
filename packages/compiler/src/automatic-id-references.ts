import type { Diagnostic } from "@obelisk/core";
import { formatPath, parameterExpressions } from "@obelisk/core";
import type { CallEntry } from "./builder-types.js";
import { makeDiagnostic } from "./make-diagnostic.js";
import type { PlanBuilder } from "./plan-builder.js";

/** True when `†calls.<id>` names a call of this plan or a stored output of the thread. */
function readsSomething(builder: PlanBuilder, id: string): boolean {
  return builder.entries.has(id) || builder.settings.context.callOutputs?.has(id) === true;
}

/**
 * The tool whose automatic ids `id` has the form of (`<tool>$<n>`), when this plan has unnamed calls of
 * that tool (`autoNamedTools`); undefined otherwise.
 */
export function automaticIdTool(id: string, autoNamedTools: ReadonlySet<string>): string | undefined {
  const dollar = id.lastIndexOf("$");
  if (dollar <= 0 || dollar === id.length - 1) return undefined;
  for (let index = dollar + 1; index < id.length; index++) {
    const code = id.charCodeAt(index);
    if (code < 0x30 || code > 0x39) return undefined;
  }
  const tool = id.slice(0, dollar);
  return autoNamedTools.has(tool) ? tool : undefined;
}

/**
 * REF_SUSPICIOUS (warning) at each reference of `entry` that reads `†calls.<tool>$<n>` while this plan
 * has unnamed calls of `<tool>`. Automatic ids are numbered per thread, anew on every run: a plan that
 * reads one of its own unnamed calls that way reads an older call's stored output when it is sent again
 * (the same plan then ends `satisfied` on stale data). Naming the call is the fix.
 */
export function automaticIdReferences(
  builder: PlanBuilder,
  entry: CallEntry,
  autoNamedTools: ReadonlySet<string>,
  out: Diagnostic[],
): void {
  for (const reference of entry.call.references) {
    let reported = false;
    for (const expression of parameterExpressions(reference.value)) {
      for (const gate of expression.alternatives) {
        for (const operand of gate) {
          const id = operand.path[0];
          if (reported || operand.kind !== "calls" || typeof id !== "string") continue;
          const tool = automaticIdTool(id, autoNamedTools);
          // An id that reads nothing is REF_UNRESOLVED already, whose hint says to name the call.
          if (tool === undefined || !readsSomething(builder, id)) continue;
          reported = true;
          const rest = `†calls.<id>${formatPath(operand.path.slice(1))}`;
          out.push(
            makeDiagnostic(
              "REF_SUSPICIOUS",
              `${operand.text} reads an automatic call id while this plan has unnamed ${tool} calls: automatic ids are numbered anew on every run, so sent again this plan reads an older call's output`,
              reference.pointer,
              {
                callId: entry.id,
                hint: `give the ${tool} call an "_id" of its own and read ${rest} with that id`,
              },
            ),
          );
        }
      }
    }
  }
}
