import type { Diagnostic, InputExpression, Path, Reference } from "@obelisk/core";
import { formatReference, nearestNames } from "@obelisk/core";
import type { CallEntry } from "./builder-types.js";
import type { ParamReference, WriterLink } from "./compiled-plan.js";
import { makeDiagnostic } from "./make-diagnostic.js";
import { fallbackReference, type OptionalRead, optionalRead } from "./optional-reads.js";
import type { PlanBuilder } from "./plan-builder.js";
import {
  declaredNames,
  type NearestDeclared,
  type UndeclaredName,
  undeclaredNearName,
} from "./undeclared-near-name.js";
import { judgeEveryWriterAbove } from "./writers-above.js";

/** A read of a name its schema does not declare: whose schema says so, and the near name it declares. */
interface Finding {
  /** `the output schema of call "u" (fetchUser)`, `the input schema`. */
  readonly whose: string;
  /** Index in the reference's path of the undeclared name. */
  readonly index: number;
  readonly near: string;
  /** What happens when the value lacks the name. */
  readonly otherwise: string;
}

/** What happens to a read of a name a writer's value lacks, and to one an input lacks. */
const BLOCKED = "if the value lacks it, the call ends blocked";
const REFUSED = "run with an input that lacks it, the plan is refused (REF_UNRESOLVED)";

/** At most this many names are compared per compile (each with at most MAX_CANDIDATES declared ones). */
const MAX_JUDGED_NAMES = 200;
/** A level declaring more names than this is not judged. */
const MAX_CANDIDATES = 5_000;
/** Names compared so far, per plan builder: an untrusted plan cannot make the pass quadratic. */
const namesJudged = new WeakMap<PlanBuilder, number>();

/**
 * Starts a new budget of compared names for `builder`: the close pass gets its own (as a batch compile
 * does), and so does each call a stream adds.
 */
export function startUndeclaredPass(builder: PlanBuilder): void {
  namesJudged.delete(builder);
}

/** `nearestNames` within the builder's budget. */
function budgetedNearest(builder: PlanBuilder): NearestDeclared {
  return (name, properties) => {
    const judged = namesJudged.get(builder) ?? 0;
    if (judged >= MAX_JUDGED_NAMES) return undefined;
    namesJudged.set(builder, judged + 1);
    const declared = declaredNames(properties);
    return declared.length > MAX_CANDIDATES ? undefined : nearestNames(name, declared, 1)[0];
  };
}

/**
 * Whether the pass can find anything: a writer whose output schema declares names, or an input schema
 * without the input.
 */
export function mayReadUndeclared(builder: PlanBuilder): boolean {
  const { context, planInputSchema } = builder.settings;
  const inputSchemas = context.input === undefined && (planInputSchema ?? context.inputSchema) !== undefined;
  return builder.namingWriters || inputSchemas;
}

/**
 * REF_SUSPICIOUS (warning) at each reference of `entry` that reads, below what a call writes or in the
 * input, a name the schema there does not declare while declaring a near one (`†state.user.nme` beside a
 * writer whose output lists `name`). The schema allows other keys, so the read may be meant and the plan
 * may run; the likely typo is said before approval, not found when the call ends blocked. Every
 * writer must say so (one that may hold the name, or is not judged, keeps it quiet). One per parameter.
 */
export function undeclaredReferences(builder: PlanBuilder, entry: CallEntry, out: Diagnostic[]): void {
  for (const reference of entry.call.references) {
    const found = firstFinding(builder, entry, reference.value, undeclaredFound);
    if (found === undefined) {
      optionalReads(builder, entry, reference, out);
      continue;
    }
    const { finding, operand } = found;
    const name = operand.path[finding.index] as string;
    const fixed = [...operand.path];
    fixed[finding.index] = finding.near;
    out.push(
      makeDiagnostic(
        "REF_SUSPICIOUS",
        `${operand.text} reads "${name}", which ${finding.whose} does not declare`,
        reference.pointer,
        {
          callId: entry.id,
          hint: `did you mean ${JSON.stringify(formatReference(operand.kind, fixed))}? (the schema allows other names, so this may be meant; ${finding.otherwise})`,
        },
      ),
    );
  }
}

/**
 * REF_SUSPICIOUS (warning) at a reference that reads a name every writer's output schema marks optional
 * (user review s32 L12, decision 0053): the plan is valid, but when the tool leaves the name out the call ends blocked
 * while the run succeeds. The hint gives the language's fix, a `||` fallback (to a name the same level
 * requires, when there is one).
 */
function optionalReads(
  builder: PlanBuilder,
  entry: CallEntry,
  reference: ParamReference,
  out: Diagnostic[],
): void {
  const value = reference.value;
  const read: OptionalRead | undefined = firstFinding(builder, entry, value, optionalRead);
  if (read === undefined) return;
  const name = read.operand.path[read.index] as string;
  const whole = formatReference(read.operand.kind, read.operand.path);
  const fallback = `${whole} || ${fallbackReference(read) ?? "†…"}`;
  const written = value.type === "reference" ? fallback : `{${fallback}}`;
  out.push(
    makeDiagnostic(
      "REF_SUSPICIOUS",
      `${read.operand.text} reads "${name}", which ${read.whose} marks optional`,
      reference.pointer,
      {
        callId: entry.id,
        hint: `if the tool leaves it out, the call ends blocked: give a fallback the value always has, ${JSON.stringify(written)}${read.required === undefined ? ", or have the tool always return it" : ""}`,
      },
    ),
  );
}

/** An operand with its finding. */
interface FoundOperand {
  readonly operand: Reference;
  readonly finding: Finding;
}

/** What a parameter's operand is judged by (a module-level function: no closure per reference). */
type OperandJudge<T> = (builder: PlanBuilder, entry: CallEntry, operand: Reference) => T | undefined;

/**
 * The first finding of `judge` among a parameter's operands: the whole reference's, or each `{…}` part's of a
 * template in order. An expression with a fallback (`†state.u.emails || †state.u.email`) is not judged: its
 * first alternatives may probe for names on purpose, and a hint would turn them into the last one (for an
 * optional name, the `||` is already the fix).
 */
function firstFinding<T>(
  builder: PlanBuilder,
  entry: CallEntry,
  value: ParamReference["value"],
  judge: OperandJudge<T>,
): T | undefined {
  if (value.type === "reference") return firstInExpression(builder, entry, value.expression, judge);
  for (const part of value.parts) {
    if (typeof part === "string") continue;
    const found = firstInExpression(builder, entry, part, judge);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** {@link firstFinding} within one expression. */
function firstInExpression<T>(
  builder: PlanBuilder,
  entry: CallEntry,
  expression: InputExpression,
  judge: OperandJudge<T>,
): T | undefined {
  if (expression.alternatives.length > 1) return undefined;
  for (const gate of expression.alternatives)
    for (const operand of gate) {
      const found = judge(builder, entry, operand);
      if (found !== undefined) return found;
    }
  return undefined;
}

/** The operand with its finding, when it reads an undeclared name near a declared one. */
function undeclaredFound(
  builder: PlanBuilder,
  entry: CallEntry,
  operand: Reference,
): FoundOperand | undefined {
  const finding = undeclaredOperand(builder, entry, operand);
  return finding === undefined ? undefined : { operand, finding };
}

/**
 * The finding on one operand: through its in-plan writers, or the input schemas when it has none. Not
 * cached: a writer that writes the path itself or has no output schema answers at once, and the schema
 * walk runs only for reads below a typed writer's target.
 */
function undeclaredOperand(builder: PlanBuilder, entry: CallEntry, operand: Reference): Finding | undefined {
  const links = entry.writers.get(operand.text);
  if (links !== undefined && links.length > 0)
    return builder.namingWriters ? judgeWriters(builder, links, operand) : undefined;
  const { context, planInputSchema } = builder.settings;
  if (operand.kind !== "input" || context.input !== undefined) return undefined;
  const whose = "the input schema";
  const schemas = [planInputSchema, context.inputSchema];
  return everySchemaSays(schemas, operand.path, 0, whose, REFUSED, budgetedNearest(builder));
}

/** The finding when every given schema leaves the name undeclared (none given: nothing to say). */
function everySchemaSays(
  schemas: readonly unknown[],
  path: Path,
  offset: number,
  whose: string,
  otherwise: string,
  nearest: NearestDeclared,
): Finding | undefined {
  let first: UndeclaredName | undefined;
  for (const schema of schemas) {
    if (schema === undefined) continue;
    const found = undeclaredNearName(schema, path.slice(offset), nearest);
    if (found === undefined) return undefined;
    first ??= found;
  }
  return first === undefined
    ? undefined
    : { whose, index: offset + first.index, near: first.near, otherwise };
}

/**
 * The finding when every writer of the operand writes a path above it with `set`, by its first alternative
 * (checked against its output schema at run time), and that schema leaves the rest of the path undeclared.
 * A latent call's `_output` is a value: REF_UNRESOLVED judges it.
 */
function judgeWriters(
  builder: PlanBuilder,
  links: readonly WriterLink[],
  operand: Reference,
): Finding | undefined {
  const nearest = budgetedNearest(builder);
  return judgeEveryWriterAbove(builder, links, operand, (writer, rest) => {
    const output = writer.tool.storedOutputSchema ?? writer.tool.outputSchema;
    if (writer.call.hasOutput || output === undefined) return undefined;
    const whose = `the output schema of call "${writer.id}" (${writer.tool.name})`;
    const offset = operand.path.length - rest.length;
    return everySchemaSays([output], operand.path, offset, whose, BLOCKED, nearest);
  });
}
