/** A reference in braces that do not make one template slot: `{{†x}}`, `{{ †x }}`, `{ †x }`. */
const BRACED_SLOT = /\{(\{[ \t]*|[ \t]+)(†[A-Za-z_$][^\s{}†]*)[ \t]*\}/;

/** A REF_SUSPICIOUS message and hint that name the fix. */
export interface BracedSlotHint {
  readonly message: string;
  readonly hint: string;
}

/**
 * The message and hint for a string whose reference sits in double braces (the Handlebars / Jinja
 * habit: `"Hi {{†state.a.name}}"` renders `"Hi {x}"`) or in single braces with spaces inside
 * (`"{ †state.a.name }"`, not a template slot: sent as text), or undefined. Called only for a template
 * holding `{{` or for a literal already found suspicious, so a valid plan never runs the pattern.
 */
export function bracedSlotHint(text: string): BracedSlotHint | undefined {
  const match = BRACED_SLOT.exec(text);
  if (match === null) return undefined;
  const [, opening, reference] = match as unknown as [string, string, string];
  if (opening.charCodeAt(0) === 0x7b) {
    return {
      message: "a reference in double braces: a template slot takes one pair",
      hint: `write {${reference}}: the outer braces are sent as text`,
    };
  }
  return {
    message: "a reference in braces with spaces inside is not a template slot: it is sent as text",
    hint: `write {${reference}} with no spaces inside the braces`,
  };
}
