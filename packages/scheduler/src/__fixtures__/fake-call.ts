import type { CallOperand, CompiledCall, WriterLink } from "@obelisk/compiler";
import { asCallId, type OutputMethod, type OutputTarget, type Reference } from "@obelisk/core";

/** A reference from a dotted test spelling: `†state.a.b` → kind state, path [a, b]; `†state.list.-1` → [list, -1]. */
export function ref(text: string): Reference {
  const [kind, ...path] = text.slice(1).split(".");
  return {
    kind: kind ?? "",
    path: path.map((segment) => (/^-?\d+$/.test(segment) ? Number(segment) : segment)),
    text,
  };
}

/** Options of a hand-made compiled call. */
export interface FakeCallOptions {
  /** Expressions read: each is `||` alternatives of `&&` operand texts. */
  readonly reads?: readonly (readonly (readonly string[])[])[];
  /** Output path alternatives of target texts. */
  readonly writes?: readonly (readonly string[])[];
  /** Output method. */
  readonly method?: OutputMethod;
  /** Writers by reference text. */
  readonly writers?: Readonly<Record<string, readonly WriterLink[]>>;
}

/** A hand-made compiled call for decision-core tests. */
export function fakeCall(id: string, index: number, options: FakeCallOptions = {}): CompiledCall {
  const references = (options.reads ?? []).map((alternatives, position) => ({
    location: [`p${position}`],
    pointer: `/plan/${index}/p${position}`,
    value: {
      type: "reference" as const,
      expression: { alternatives: alternatives.map((operands) => operands.map(ref)) },
    },
  }));
  // the compiler's flat operand list: one object per distinct text, its links those of `writers`
  const byText = new Map<string, CallOperand>();
  const operands: CallOperand[] = [];
  const shape: number[] = [];
  for (const alternatives of options.reads ?? []) {
    shape.push(alternatives.length);
    for (const texts of alternatives) {
      shape.push(texts.length);
      for (const text of texts) {
        let operand = byText.get(text);
        if (operand === undefined) {
          operand = { reference: ref(text), links: options.writers?.[text] ?? [] };
          byText.set(text, operand);
        }
        operands.push(operand);
      }
    }
  }
  const single = shape.length === operands.length * 2 && shape.every((count) => count === 1);
  const writes = options.writes;
  const targets = (texts: readonly string[]): OutputTarget[] => texts.map((text) => ({ ...ref(text) }));
  return {
    id: asCallId(id),
    index,
    pointer: `/plan/${index}`,
    tool: "t",
    params: {},
    references,
    writers: new Map(Object.entries(options.writers ?? {})),
    operands,
    operandShape: single ? undefined : shape,
    ...(writes === undefined
      ? {}
      : {
          outputPath: {
            alternatives: writes.map(targets),
            text: writes.map((alt) => alt.join(" && ")).join(" || "),
          },
        }),
    outputMethod: options.method ?? "set",
    hasOutput: false,
    rerun: false,
    raw: { _tool: "t" },
  };
}

/** A writer link (its position unknown: the core finds the writer by id). */
export function link(callId: string, alternatives: readonly number[] = [0], conditional = false): WriterLink {
  return { callId: asCallId(callId), position: -1, alternatives, conditional };
}
