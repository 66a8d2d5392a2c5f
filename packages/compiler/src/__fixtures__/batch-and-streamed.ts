import type { Diagnostic, JsonObject } from "@obelisk/core";
import { expect } from "vitest";
import { compile } from "../compile.js";
import type { CompileContext } from "../compiled-plan.js";
import { createIncrementalCompiler } from "../incremental-compiler.js";
import type { ToolRegistry } from "../tool-registry.js";

/**
 * `calls`' diagnostics as `shape` shows them, compiled as a batch, after checking that streaming the calls
 * one by one and closing gives the same.
 */
export function batchAndStreamed<T>(
  registry: ToolRegistry,
  calls: readonly JsonObject[],
  context: CompileContext,
  shape: (diagnostics: readonly Diagnostic[]) => T,
): T {
  const batch = compile({ type: "plan", plan: calls }, registry, { context }).diagnostics;
  const stream = createIncrementalCompiler(registry, { context });
  for (const call of calls) stream.addCall(call);
  expect(shape(stream.close().diagnostics)).toEqual(shape(batch));
  return shape(batch);
}
