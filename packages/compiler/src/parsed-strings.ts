import type {
  InputExpression,
  OutputPath,
  OutputTarget,
  ParameterValue,
  Reference,
  TemplateExpressions,
} from "@obelisk/core";

/** A parsed reference or template. */
export type ParsedString = Extract<ParameterValue, { type: "reference" | "template" }>;

/**
 * Reference and template strings already parsed in this plan, by text: plans repeat the same references
 * (a path read by several calls), and a parsed value is immutable, so the calls share it. A call's
 * one-target output path is there too (see `rememberOutputTarget`).
 */
export type ParsedStrings = Map<string, ParsedString>;

/**
 * Remembers a one-target output path under its target's canonical text: a parameter string that is
 * exactly that text parses to a reference to the same kind and path (the text round-trips through the
 * parser), so its reader shares the writer's target, path and text instead of parsing copies of them,
 * which lived as long as the compiled plan. The reference is made here, not at the first read: that was a
 * second store into this map (of 10k entries in a 10k-call plan, a cache miss or two) per path read.
 * Once the plan has templates, the target is a known template part too (see `seedTemplateParts`).
 */
export function rememberOutputTarget(
  outputPath: OutputPath,
  parsedStrings: ParsedStrings,
  templateExpressions?: TemplateExpressions,
): void {
  const alternatives = outputPath.alternatives;
  if (alternatives.length !== 1) return;
  const targets = alternatives[0] as readonly OutputTarget[];
  if (targets.length !== 1) return;
  const text = (targets[0] as OutputTarget).text;
  if (parsedStrings.has(text)) return;
  // What parseParameterString returns for the target's text, around the writer's own lists.
  const expression: InputExpression = { alternatives };
  parsedStrings.set(text, { type: "reference", expression });
  if (templateExpressions !== undefined && SEEDED.has(templateExpressions))
    addTemplatePart(templateExpressions, text, expression);
}

/** One entry of core's template-part cache (`TemplateExpressions`: part text and its expression). */
type TemplatePart = TemplateExpressions extends Map<number, (infer Part)[]> ? Part : never;

/** Template-part caches already seeded with the plan's canonical references (one per compile). */
const SEEDED = new WeakSet<TemplateExpressions>();

/**
 * The hash core's `parseTemplate` keys a part by (`TemplateExpressions`: the length, then ×31 plus each
 * UTF-16 code). Were core to hash otherwise, a seeded part would only never be found (the part's text is
 * compared before its expression is used), and the template-seeding test would fail.
 */
function partHash(text: string): number {
  let hash = text.length;
  for (let index = 0; index < text.length; index++) hash = (Math.imul(hash, 31) + text.charCodeAt(index)) | 0;
  return hash;
}

/** Adds `text` → `expression` to the template-part cache unless a part of that text is there. */
function addTemplatePart(known: TemplateExpressions, text: string, expression: InputExpression): void {
  const hash = partHash(text);
  const parts = known.get(hash);
  const part: TemplatePart = { text, expression };
  if (parts === undefined) {
    known.set(hash, [part]);
    return;
  }
  for (const other of parts) if (other.text === text) return;
  parts.push(part);
}

/**
 * Before the plan's first template is parsed: every reference string parsed or remembered so far whose
 * whole text is one canonical operand (a writer's target, above all) becomes a known template part, and
 * later targets are added as they are remembered. A `{†state.step5.text}` part then shares the writer's
 * target (kind, path, text) instead of being scanned into copies that live as long as the compiled plan,
 * and the lookups by its text and path segments (shared writer groups, the writers' trie) compare the
 * writer's own strings by identity. A part is looked up by its text up to the first `}` and used only when
 * its expression ends there: a canonical operand's text, parsed as a part, ends exactly at its end and
 * gives the same reference (the text round-trips through the parser, as for `rememberOutputTarget`).
 * Plans without templates never pay for it. Once per cache: later calls return at once.
 */
export function seedTemplateParts(parsedStrings: ParsedStrings, known: TemplateExpressions): void {
  if (SEEDED.has(known)) return;
  SEEDED.add(known);
  for (const [text, value] of parsedStrings) {
    if (value.type !== "reference") continue;
    const alternatives = value.expression.alternatives;
    if (alternatives.length !== 1) continue;
    const gate = alternatives[0] as readonly Reference[];
    if (gate.length === 1 && (gate[0] as Reference).text === text)
      addTemplatePart(known, text, value.expression);
  }
}
