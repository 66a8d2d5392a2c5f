import { type CompiledCall, compile, createToolRegistry } from "@obelisk/compiler";
import { deepFreeze, type JsonObject, type JsonValue } from "@obelisk/core";
import { WorkingContext } from "../working-context.js";

const registry = createToolRegistry([{ name: "val", run: (args: { v?: unknown }) => args.v ?? null }]);

/** The compiled first call of a one-call plan `{ _tool: "val", v }` (its tool returns `v`). */
export function callWith(v: JsonValue): CompiledCall {
  const compiled = compile([{ _tool: "val", _id: "c", v }], registry);
  if (!compiled.ok) throw new Error(JSON.stringify(compiled.diagnostics));
  return compiled.calls[0] as CompiledCall;
}

/** A working context over `state` (no input). */
export const contextOf = (state: JsonObject): WorkingContext =>
  new WorkingContext(deepFreeze({}), deepFreeze(state));
