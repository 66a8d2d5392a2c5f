import { type CompiledCall, type CompiledPlan, sortDiagnostics, type ToolRegistry } from "@obelisk/compiler";
import {
  appendPointer,
  type Diagnostic,
  didYouMean,
  isValidCallId,
  type JsonValue,
  type KindTable,
  type LimitOverrides,
  type Limits,
  ObeliskError,
  type ParameterValue,
  parameterExpressions,
  parseParameterString,
  readHostValue,
  resolveLimits,
  toJsonValue,
} from "@obelisk/core";
import type { HostKind } from "./engine-types.js";

/** The parameters that may read each scoped host kind: kind → tool → parameter names. */
type Readers = ReadonlyMap<string, ReadonlyMap<string, ReadonlySet<string>>>;

const usage = (message: string, hint?: string): ObeliskError =>
  new ObeliskError("USAGE", `createEngine: ${message}`, hint === undefined ? {} : { hint });

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * A kind's `readers`, checked against the registry: an object of arrays of parameter names by tool name,
 * each tool registered and each name one its input schema declares when it declares any (a name it does
 * not have could never be given, as for `approvalParams`). Throws USAGE otherwise.
 */
function checkedReaders(
  kind: string,
  given: unknown,
  registry: ToolRegistry,
): ReadonlyMap<string, ReadonlySet<string>> {
  const what = `kind "${kind}": readers`;
  const example = `e.g. readers: { callApi: ["auth"] } lets only callApi's "auth" read †${kind}`;
  if (!isRecord(given)) throw usage(`${what} must be an object of parameter names by tool name`, example);
  const byTool = new Map<string, ReadonlySet<string>>();
  for (const [tool, names] of Object.entries(given)) {
    const registered = registry.get(tool);
    if (registered === undefined)
      throw usage(
        `${what} names the tool "${tool}", which is not registered`,
        didYouMean(tool, registry.names) ?? `the tools are ${registry.names.join(", ")}`,
      );
    if (!Array.isArray(names) || !names.every((name) => typeof name === "string" && name !== ""))
      throw usage(`${what}.${tool} must be an array of parameter names`, example);
    const properties = registered.inputSchema.properties;
    const declared = isRecord(properties) ? Object.keys(properties) : undefined;
    for (const name of names as string[]) {
      if (name.startsWith("_"))
        throw usage(
          `${what}.${tool} names "${name}": a key starting with "_" is a meta-property, which never reads a reference`,
          "name the tool's parameters that may read the kind",
        );
      if (declared !== undefined && !declared.includes(name))
        throw usage(
          `${what}.${tool} names "${name}", which the input schema of "${tool}" does not declare`,
          didYouMean(name, declared) ?? `its parameters are ${declared.join(", ")}`,
        );
    }
    byTool.set(tool, new Set(names as string[]));
  }
  return byTool;
}

/** The parameters that may read a kind, as `tool.param` (`callApi.auth`), in the order `readers` gave them. */
function readerNames(byTool: ReadonlyMap<string, ReadonlySet<string>>): string[] {
  const names: string[] = [];
  for (const [tool, params] of byTool) for (const param of params) names.push(`${tool}.${param}`);
  return names;
}

/** "callApi.auth, mailer.password" or what says that nothing may read the kind. */
function readersText(byTool: ReadonlyMap<string, ReadonlySet<string>>): string | undefined {
  const names = readerNames(byTool);
  return names.length === 0 ? undefined : names.join(", ");
}

/**
 * Where the host lets its kinds be read (`HostKind.readers`, decision 0073): built once per engine, only
 * when some kind has `readers` (an engine without them never walks a plan for it). It finds the
 * references to a scoped kind from a parameter its readers do not list, as `REF_KIND_FORBIDDEN` at the
 * string that holds them: a whole reference, a template's `{†…}`, any `||` / `&&` operand, at any depth of
 * the parameter's value. Meta-properties read nothing (`_output` is a literal, `_outputPath` writes).
 */
export class KindScope {
  private readonly limits: Limits;

  private constructor(
    private readonly readers: Readers,
    private readonly registry: ToolRegistry,
    private readonly kinds: KindTable,
    limits: LimitOverrides | undefined,
  ) {
    this.limits = resolveLimits(limits);
  }

  /** The scope of the engine's kinds, or undefined when none has `readers`. Throws USAGE for bad `readers`. */
  static of(
    hostKinds: readonly HostKind[] | undefined,
    registry: ToolRegistry,
    kinds: KindTable,
    limits: LimitOverrides | undefined,
  ): KindScope | undefined {
    const readers = readHostValue("createEngine's kinds", () => {
      const scoped = new Map<string, ReadonlyMap<string, ReadonlySet<string>>>();
      for (const info of hostKinds ?? []) {
        const given: unknown = info.readers;
        if (given !== undefined) scoped.set(info.kind, checkedReaders(info.kind, given, registry));
      }
      return scoped;
    });
    return readers.size === 0 ? undefined : new KindScope(readers, registry, kinds, limits);
  }

  /**
   * The parameters that may read `kind`, as `tool.param` (`[]`: none may); undefined when the kind is not
   * scoped (any parameter may read it).
   */
  readersOf(kind: string): readonly string[] | undefined {
    const byTool = this.readers.get(kind);
    return byTool === undefined ? undefined : readerNames(byTool);
  }

  /**
   * Whether `tool`'s `param` may read `kind` (the compiler's `CompileContext.mayRead`): a kind without
   * `readers` any may; a scoped kind only the parameters listed (a call of no known tool: none).
   */
  readonly mayRead = (kind: string, tool: string | undefined, param: string): boolean => {
    const byTool = this.readers.get(kind);
    return byTool === undefined || (tool !== undefined && byTool.get(tool)?.has(param) === true);
  };

  /** The forbidden reads of a compiled plan's calls (calls that could not be compiled are not judged). */
  compiledReads(compiled: CompiledPlan): Diagnostic[] {
    const out: Diagnostic[] = [];
    for (const call of compiled.calls) {
      if (!this.readsScopedKind(call)) continue;
      for (const reference of call.references)
        this.judge(call.tool, reference.location[0], reference.value, reference.pointer, call.id, out);
    }
    return out;
  }

  /**
   * A call a stream adds, judged before the compiler takes it (a call it accepts cannot be taken back):
   * its frozen JSON copy, which the compiler takes as it is, and its forbidden reads at `pointer`. A call
   * that is not JSON, too large, or not of a registered tool is left to the compiler, which refuses it.
   */
  streamedCall(call: unknown, pointer: string): { readonly call: unknown; readonly forbidden: Diagnostic[] } {
    const copy = toJsonValue(call, { maxBytes: this.limits.maxDocumentBytes, remember: true });
    if (!copy.ok || !isRecord(copy.value)) return { call, forbidden: [] };
    const value = copy.value as Record<string, JsonValue>;
    const forbidden: Diagnostic[] = [];
    const tool = value._tool;
    if (typeof tool !== "string" || this.registry.get(tool) === undefined) return { call: value, forbidden };
    const callId = typeof value._id === "string" && isValidCallId(value._id) ? value._id : undefined;
    for (const [name, param] of Object.entries(value))
      if (!name.startsWith("_"))
        this.walk(tool, name, param, appendPointer(pointer, name), callId, forbidden);
    return { call: value, forbidden };
  }

  /** Judges every string at or below `value` (a parameter's, at most `MAX_VALUE_DEPTH` deep: a JSON copy). */
  private walk(
    tool: string,
    param: string,
    value: JsonValue,
    pointer: string,
    callId: string | undefined,
    out: Diagnostic[],
  ): void {
    if (typeof value === "string") {
      if (!value.includes("†")) return;
      const parsed = parseParameterString(value, this.kinds, this.limits);
      if (parsed.ok) this.judge(tool, param, parsed.value, pointer, callId, out);
      return;
    }
    if (typeof value !== "object" || value === null) return;
    if (Array.isArray(value)) {
      value.forEach((item, index) => {
        this.walk(tool, param, item, appendPointer(pointer, index), callId, out);
      });
      return;
    }
    for (const [key, item] of Object.entries(value))
      this.walk(tool, param, item, appendPointer(pointer, key), callId, out);
  }

  /** True when an operand of the call reads a scoped kind (a scan of its flat operand list). */
  private readsScopedKind(call: CompiledCall): boolean {
    for (const operand of call.operands) if (this.readers.has(operand.reference.kind)) return true;
    return false;
  }

  /** Adds a REF_KIND_FORBIDDEN per scoped kind the string reads that `tool`'s `param` may not read. */
  private judge(
    tool: string,
    param: string | number | undefined,
    value: ParameterValue,
    pointer: string,
    callId: string | undefined,
    out: Diagnostic[],
  ): void {
    let told: Set<string> | undefined;
    for (const expression of parameterExpressions(value))
      for (const operands of expression.alternatives)
        for (const { kind } of operands) {
          const byTool = this.readers.get(kind);
          if (byTool === undefined || told?.has(kind)) continue;
          if (typeof param === "string" && byTool.get(tool)?.has(param) === true) continue;
          told ??= new Set();
          told.add(kind);
          out.push(forbiddenRead(kind, tool, String(param), byTool, pointer, callId));
        }
  }
}

/** The REF_KIND_FORBIDDEN of `tool`'s `param` reading `kind`, its hint naming who may read it. */
function forbiddenRead(
  kind: string,
  tool: string,
  param: string,
  byTool: ReadonlyMap<string, ReadonlySet<string>>,
  pointer: string,
  callId: string | undefined,
): Diagnostic {
  const readers = readersText(byTool);
  return {
    code: "REF_KIND_FORBIDDEN",
    severity: "error",
    message: `parameter "${param}" of tool "${tool}" may not read †${kind}: the host lets only some parameters read it`,
    pointer,
    ...(callId === undefined ? {} : { callId }),
    hint:
      readers === undefined
        ? `no parameter may read †${kind}: leave it out of the plan`
        : `only ${readers} may read †${kind}: leave it out here`,
  };
}

/**
 * The compiled plan's diagnostics with `added` in document order, as the compiler orders its own (a stable
 * sort: each added one goes after the compiled ones at its place).
 */
export function withAddedDiagnostics(
  compiled: readonly Diagnostic[],
  added: readonly Diagnostic[],
  plan: CompiledPlan,
): readonly Diagnostic[] {
  if (added.length === 0) return compiled;
  return sortDiagnostics([...compiled, ...added], plan.document?.source, plan.sourceMap);
}
