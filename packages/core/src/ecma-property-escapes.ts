/**
 * ECMA-262's long General_Category value names and aliases, by the short name RE2 knows (`\p{Letter}` is
 * `\p{L}`). ECMA-262 takes both; RE2 only the short ones.
 */
const CATEGORIES: Readonly<Record<string, string>> = {
  Other: "C",
  Control: "Cc",
  cntrl: "Cc",
  Format: "Cf",
  Unassigned: "Cn",
  Private_Use: "Co",
  Surrogate: "Cs",
  Letter: "L",
  Cased_Letter: "LC",
  Lowercase_Letter: "Ll",
  Modifier_Letter: "Lm",
  Other_Letter: "Lo",
  Titlecase_Letter: "Lt",
  Uppercase_Letter: "Lu",
  Mark: "M",
  Combining_Mark: "M",
  Spacing_Mark: "Mc",
  Enclosing_Mark: "Me",
  Nonspacing_Mark: "Mn",
  Number: "N",
  Decimal_Number: "Nd",
  digit: "Nd",
  Letter_Number: "Nl",
  Other_Number: "No",
  Punctuation: "P",
  punct: "P",
  Connector_Punctuation: "Pc",
  Dash_Punctuation: "Pd",
  Close_Punctuation: "Pe",
  Final_Punctuation: "Pf",
  Initial_Punctuation: "Pi",
  Other_Punctuation: "Po",
  Open_Punctuation: "Ps",
  Symbol: "S",
  Currency_Symbol: "Sc",
  Modifier_Symbol: "Sk",
  Math_Symbol: "Sm",
  Other_Symbol: "So",
  Separator: "Z",
  Line_Separator: "Zl",
  Paragraph_Separator: "Zp",
  Space_Separator: "Zs",
};

/** The property RE2 names as ECMA-262's `body` (what is between the braces), or undefined to keep `body`. */
function re2Property(body: string): string | undefined {
  const [name, value] = body.split("=", 2) as [string, string | undefined];
  if (value === undefined) return Object.hasOwn(CATEGORIES, name) ? CATEGORIES[name] : undefined;
  if (name === "General_Category" || name === "gc")
    return Object.hasOwn(CATEGORIES, value) ? CATEGORIES[value] : value;
  // RE2 names a script by its long name alone (`\p{Greek}`); a short alias (`Grek`) it does not know, and
  // Script_Extensions it has not: those stay, and RE2 refuses them
  if (name === "Script" || name === "sc") return value;
  return undefined;
}

/**
 * A `\p{…}` or `\P{…}` property escape at `index` of an ECMA-262 `u`-flag pattern written for RE2, with the
 * index of its closing brace; undefined when there is none there or RE2 names it the same. RE2 knows
 * `\p{L}` and `\p{Greek}` but not the forms ECMA-262 also takes: `\p{Letter}`, `\p{gc=L}`,
 * `\p{General_Category=Letter}`, `\p{Script=Greek}`, `\p{sc=Greek}`, `\p{ASCII}` (written as its range).
 */
export function re2PropertyEscape(
  pattern: string,
  index: number,
  inClass: boolean,
): { readonly text: string; readonly end: number } | undefined {
  const letter = pattern[index + 1];
  if ((letter !== "p" && letter !== "P") || pattern[index + 2] !== "{") return undefined;
  const end = pattern.indexOf("}", index + 3);
  if (end < 0) return undefined;
  const body = pattern.slice(index + 3, end);
  if (body === "ASCII") {
    if (inClass) return { text: letter === "p" ? "\\x00-\\x7f" : "\\x80-\\u{10ffff}", end };
    return { text: letter === "p" ? "[\\x00-\\x7f]" : "[^\\x00-\\x7f]", end };
  }
  const name = re2Property(body);
  return name === undefined ? undefined : { text: `\\${letter}{${name}}`, end };
}
