import type { CallId, JsonObject, PlanCallSource } from "@obelisk/core";
import type { CallBody } from "./analyze-call.js";
import type { CallOperand, CompiledCall, WriterLink } from "./compiled-plan.js";
import type { RegisteredTool } from "./registered-tool.js";

/** The compiled call of an analysed call body (optional fields only when present). */
export function makeCompiledCall(
  source: PlanCallSource,
  raw: JsonObject,
  tool: RegisteredTool,
  id: CallId,
  body: CallBody,
  writers: ReadonlyMap<string, readonly WriterLink[]>,
  operands: readonly CallOperand[],
  operandShape: readonly number[] | undefined,
): CompiledCall {
  const { meta, outputPath } = body;
  // With `outputPath` (the common case) in the literal itself: a property added afterwards goes to a
  // separate property store (~40 bytes more per call, for as long as the compiled plan lives).
  const call: { -readonly [K in keyof CompiledCall]: CompiledCall[K] } =
    outputPath === undefined
      ? {
          id,
          index: source.index,
          pointer: source.pointer,
          tool: tool.name,
          params: body.params,
          references: body.references,
          writers,
          operands,
          operandShape,
          outputMethod: meta.outputMethod,
          hasOutput: meta.hasOutput,
          rerun: meta.rerun,
          raw,
        }
      : {
          id,
          index: source.index,
          pointer: source.pointer,
          tool: tool.name,
          params: body.params,
          references: body.references,
          writers,
          operands,
          operandShape,
          outputMethod: meta.outputMethod,
          hasOutput: meta.hasOutput,
          rerun: meta.rerun,
          raw,
          outputPath,
        };
  if (meta.output !== undefined) call.output = meta.output;
  if (meta.description !== undefined) call.description = meta.description;
  if (meta.timeoutMs !== undefined) call.timeoutMs = meta.timeoutMs;
  if (meta.retry !== undefined) call.retry = meta.retry;
  return call;
}
