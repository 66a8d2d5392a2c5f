/** The values references read: the run's input and the thread's final state. */
export interface ReferenceContext {
  readonly input: Readonly<Record<string, unknown>>;
  readonly state: Readonly<Record<string, unknown>>;
}

const WHOLE = /^†(input|state)((?:\.[A-Za-z_$][\w$-]*)*)$/;
const TEMPLATE = /\{†(input|state)((?:\.[A-Za-z_$][\w$-]*)*)\}/g;

function lookup(context: ReferenceContext, kind: string, path: string): unknown {
  let value: unknown = kind === "input" ? context.input : context.state;
  for (const key of path.split(".").slice(1)) {
    value = typeof value === "object" && value !== null ? (value as Record<string, unknown>)[key] : undefined;
  }
  return value;
}

/**
 * A call with every reference replaced by the value it reads: what an LLM has to write (and read)
 * when data is inlined into calls, as in a ReAct loop or LLMCompiler's string substitution.
 * Handles the forms the data-analysis plan uses: whole-value references and `{†…}` templates.
 */
export function inlineReferences(value: unknown, context: ReferenceContext): unknown {
  if (typeof value === "string") {
    const whole = WHOLE.exec(value);
    if (whole) return lookup(context, whole[1] ?? "", whole[2] ?? "");
    return value.replace(TEMPLATE, (_, kind: string, path: string) => {
      const found = lookup(context, kind, path);
      return typeof found === "string" ? found : JSON.stringify(found);
    });
  }
  if (Array.isArray(value)) return value.map((item) => inlineReferences(item, context));
  if (typeof value === "object" && value !== null) {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, inlineReferences(item, context)]),
    );
  }
  return value;
}
