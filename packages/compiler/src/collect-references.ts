import type {
  Diagnostic,
  JsonObject,
  JsonValue,
  KindTable,
  Limits,
  PathSegment,
  TemplateExpressions,
} from "@obelisk/core";
import { codePointLength, parseParameterString, pointerFromPath } from "@obelisk/core";
import { bracedSlotHint } from "./braced-slot-hint.js";
import { clearList } from "./clear-list.js";
import { CollectedReference } from "./collected-reference.js";
import type { CompileContext, ParamReference } from "./compiled-plan.js";
import { makeDiagnostic } from "./make-diagnostic.js";
import { misspeltReference, misspeltReferenceHint } from "./misspelt-reference.js";
import { misusedToolOutputAlias } from "./misused-tool-output-alias.js";
import { type ParsedString, type ParsedStrings, seedTemplateParts } from "./parsed-strings.js";
import type { PlanBuilder } from "./plan-builder.js";
import { readableIssueHint } from "./readable-kind-hint.js";
import {
  bareSpellingHint,
  dollarSpellingHint,
  hasKnownData,
  kindAt,
  kindNamesOf,
} from "./reference-spelling-hint.js";
import { type SharedLocations, sharedLocation } from "./shared-locations.js";

/** What `collectReferences` needs to parse strings. */
export interface ReferenceParseOptions {
  readonly kinds: KindTable;
  readonly limits: Pick<Limits, "maxPathDepth">;
  readonly callId: string | undefined;
  /** Strings parsed before with the same kinds and limits (the plan's compile shares one). */
  readonly parsedStrings?: ParsedStrings | undefined;
  /** Locations shared by the calls of one compile. */
  readonly sharedLocations?: SharedLocations | undefined;
  /** Template parts parsed before with the same kinds and limits (shared expressions). */
  readonly templateExpressions?: TemplateExpressions | undefined;
  /** The known context: a bare `input.x` holding data there is flagged (see `bareSpellingHint`). */
  readonly context?: CompileContext | undefined;
  /** The plan's own `inputSchema`, if any (its properties are known input paths too). */
  readonly planInputSchema?: JsonObject | undefined;
  /** Where bare `kind.path` literals the known context does not explain go, for the close pass to check. */
  readonly bareSpellings?: BareSpelling[] | undefined;
  /** The call's tool, when registered (what `context.mayRead` is asked about a bare host-kind spelling). */
  readonly tool?: string | undefined;
  /** The plan's builder: REF_KIND_UNKNOWN naming a call or a tool gets the call's reference (decision 0101). */
  readonly builder?: PlanBuilder | undefined;
}

/** A whole literal `<kind>.<path>` (no dagger), checked at close against what the plan writes. */
export interface BareSpelling {
  readonly callId: string | undefined;
  readonly pointer: string;
  readonly text: string;
  /** The template slot as written (`{{input.x}}`) when the spelling is one (decision 0097). */
  readonly slot?: string | undefined;
}

/** The state of one walk over a call's parameters (`location` is the path of the value being visited). */
interface Walk {
  callPointer: string;
  options: ReferenceParseOptions;
  out: Diagnostic[];
  readonly references: ParamReference[];
  readonly location: PathSegment[];
  /** The kind names, when a bare `kind.path` string is looked at (known data, or a close pass to come). */
  bareKindNames: readonly string[] | undefined;
  /** Whether the known context holds data a bare `kind.path` string could name. */
  knownData: boolean;
}

/** What the idle walk points at instead of the last call's options (which hold a compile's caches). */
const IDLE_OPTIONS: ReferenceParseOptions = {
  kinds: new Map(),
  limits: { maxPathDepth: 0 },
  callId: undefined,
};

/**
 * The one walk, reused by every call (a walk never starts another): its lists are scratch, emptied at
 * the start and end of each walk, so a call allocates only the exact-size list of references it returns.
 */
const WALK: Walk = {
  callPointer: "",
  options: IDLE_OPTIONS,
  out: [],
  references: [],
  location: [],
  bareKindNames: undefined,
  knownData: false,
};

/**
 * Parses every string at any depth of a call's parameters (SPEC §2): references and templates are
 * collected in document order; malformed ones become REF_SYNTAX / REF_KIND_UNKNOWN /
 * REF_FORBIDDEN_SEGMENT at the string's pointer, suspicious literals REF_SUSPICIOUS warnings.
 * Pointers and locations are built only for references and diagnostics.
 */
export function collectReferences(
  params: Readonly<Record<string, JsonValue>>,
  callPointer: string,
  options: ReferenceParseOptions,
  out: Diagnostic[],
): ParamReference[] {
  const walk = WALK;
  walk.callPointer = callPointer;
  walk.options = options;
  walk.out = out;
  walk.knownData = hasKnownData(options);
  walk.bareKindNames =
    walk.knownData || options.bareSpellings !== undefined ? kindNamesOf(options.kinds) : undefined;
  const { references, location } = walk;
  clearList(references);
  clearList(location);
  try {
    for (const key in params) {
      if (!Object.hasOwn(params, key)) continue;
      location.push(key);
      visit(params[key] as JsonValue, walk);
      location.pop();
    }
    // An exact-size copy (a list grown by push keeps room for 17; it lives as long as the compiled plan).
    return references.length === 0 ? [] : references.slice();
  } finally {
    clearList(references);
    clearList(location);
    // Nothing of the call stays reachable from the idle walk: not its diagnostics, not the compile's
    // parse caches (a module-level reference would keep the last plan's parsed strings alive).
    walk.out = NO_OUT;
    walk.options = IDLE_OPTIONS;
    walk.callPointer = "";
    walk.bareKindNames = undefined;
    walk.knownData = false;
  }
}

/** What the idle walk points at instead of the last call's diagnostics. */
const NO_OUT: Diagnostic[] = [];

function visit(value: JsonValue, walk: Walk): void {
  if (typeof value === "string") {
    // No dagger and no `$` first: a plain literal (what parseParameterString would say), suspicious only
    // if it uses the `$tool_output.` alias inside text or spells a reference without the dagger.
    if (value.charCodeAt(0) !== 0x24 && value.indexOf("†") === -1) {
      plainLiteral(value, walk);
      return;
    }
    parseString(value, walk);
  } else if (Array.isArray(value)) {
    const location = walk.location;
    for (let index = 0; index < value.length; index++) {
      if (!(index in value)) continue;
      location.push(index);
      visit(value[index] as JsonValue, walk);
      location.pop();
    }
  } else if (typeof value === "object" && value !== null) {
    const location = walk.location;
    for (const key of Object.keys(value)) {
      location.push(key);
      visit((value as JsonObject)[key] as JsonValue, walk);
      location.pop();
    }
  }
}

/**
 * REF_SUSPICIOUS for a plain literal (no dagger) that misuses the `$tool_output.` alias, or spells a
 * reference with `$` / `${…}` or, naming known data, without a sigil (`input.userName`). The common string
 * costs one search for `$` (made before too) and, when the known context holds data, one `startsWith` per kind.
 */
function plainLiteral(text: string, walk: Walk): void {
  const dollar = text.indexOf("$");
  if (dollar !== -1) {
    const alias = misusedToolOutputAlias(text, dollar);
    if (alias !== undefined) {
      suspicious(walk, alias);
      return;
    }
    const spelt = dollarSpellingHint(text, dollar, walk.options);
    if (spelt !== undefined) {
      suspicious(walk, spelt, SPELLING_MESSAGE);
      return;
    }
  }
  const names = walk.bareKindNames;
  if (names === undefined) return;
  if (!kindAt(text, 0, names)) {
    misspeltLiteral(text, names, walk);
    return;
  }
  const bare = walk.knownData ? bareSpellingHint(text, walk.options, String(walk.location[0])) : undefined;
  if (bare !== undefined) suspicious(walk, bare, SPELLING_MESSAGE);
  else walk.options.bareSpellings?.push({ callId: walk.options.callId, pointer: pointerOf(walk), text });
}

/**
 * REF_SUSPICIOUS for a dagger look-alike (`‡input.x`) or a slot without the dagger (`{input.x}`,
 * `{{input.x}}`) naming known data; one naming nothing known yet goes to the close pass, as a bare
 * spelling does (decision 0097).
 */
function misspeltLiteral(text: string, names: readonly string[], walk: Walk): void {
  const options = walk.options;
  const spelt = misspeltReference(text, names, options.kinds, options.limits);
  if (spelt === undefined) return;
  const bare = spelt.reference.text.slice(1);
  const known = walk.knownData && bareSpellingHint(bare, options, String(walk.location[0])) !== undefined;
  if (known) suspicious(walk, misspeltReferenceHint(spelt), SPELLING_MESSAGE);
  else
    options.bareSpellings?.push({
      callId: options.callId,
      pointer: pointerOf(walk),
      text: bare,
      slot: spelt.slot,
    });
}

/** The message of a reference spelt without the dagger. */
export const SPELLING_MESSAGE =
  'a literal string spells a reference without "†": the tool gets the text as written';

function pointerOf(walk: Walk): string {
  return walk.callPointer + pointerFromPath(walk.location);
}

/** Records a reference at the current location. */
function addReference(walk: Walk, value: ParsedString): void {
  const shared = sharedLocation(walk.options.sharedLocations, walk.location);
  const location = shared === undefined ? walk.location.slice() : shared.location;
  const suffix = shared === undefined ? pointerFromPath(walk.location) : shared.suffix;
  walk.references.push(new CollectedReference(location, value, walk.callPointer, suffix));
}

function parseString(text: string, walk: Walk): void {
  const { options, out } = walk;
  const parsedStrings = options.parsedStrings;
  const known = parsedStrings?.get(text);
  if (known !== undefined) {
    if (known.type === "template") checkTemplate(text, known, walk);
    addReference(walk, known);
    return;
  }
  const templateExpressions = options.templateExpressions;
  // A string not starting with the dagger may be a template: its parts may be canonical references.
  if (templateExpressions !== undefined && parsedStrings !== undefined && text.charCodeAt(0) !== DAGGER_CODE)
    seedTemplateParts(parsedStrings, templateExpressions);
  const parsed = parseParameterString(text, options.kinds, options.limits, templateExpressions);
  const callId = options.callId;
  if (!parsed.ok) {
    const { code, message, offset } = parsed.issue;
    const hint = readableIssueHint(parsed.issue, text, options, String(walk.location[0]));
    out.push(
      makeDiagnostic(
        code,
        `${message} (at character ${codePointLength(text.slice(0, offset)) + 1})`,
        pointerOf(walk),
        { callId, hint },
      ),
    );
    return;
  }
  const value = parsed.value;
  if (value.type === "literal") {
    const alias = misusedToolOutputAlias(text);
    if (alias !== undefined || value.suspicious) {
      suspiciousText(walk, text, alias);
      return;
    }
    // `$input.x`, `${input.x}` (literals starting with `$` come here).
    const dollar = text.indexOf("$");
    const spelt = dollar === -1 ? undefined : dollarSpellingHint(text, dollar, options);
    if (spelt !== undefined) suspicious(walk, spelt, SPELLING_MESSAGE);
    return;
  }
  if (value.type === "template") checkTemplate(text, value, walk);
  parsedStrings?.set(text, value);
  addReference(walk, value);
}

/** `†` (one UTF-16 code unit). */
const DAGGER_CODE = 0x2020;

const SUSPICIOUS_HINT =
  'write the whole value as a reference, wrap it as "{†…}" inside text, or escape it with "††"';

/** REF_SUSPICIOUS for a template whose literal parts hold `†<kind>.`, a `$tool_output.` alias or a `${<reference>}`. */
function checkTemplate(text: string, value: ParsedString & { type: "template" }, walk: Walk): void {
  const dollar = text.indexOf("$");
  const alias = dollar === -1 ? undefined : misusedToolOutputAlias(text, dollar);
  if (alias !== undefined || value.suspicious === true) {
    suspiciousText(walk, text, alias);
    return;
  }
  // `{{†x}}`: a slot inside braces sent as text (one search for `{{`, the pattern only when found).
  if (text.indexOf("{{") !== -1) {
    const braced = bracedSlotHint(text);
    if (braced !== undefined) {
      suspicious(walk, braced.hint, braced.message);
      return;
    }
  }
  // `${input.x}` beside a `{†…}` slot.
  const spelt = dollar === -1 ? undefined : dollarSpellingHint(text, dollar, walk.options);
  if (spelt !== undefined) suspicious(walk, spelt, SPELLING_MESSAGE);
}

/**
 * The REF_SUSPICIOUS warning of a suspicious string: a misused `$tool_output.` alias, a reference in
 * braces that are not a slot (`{{ †x }}`, `{ †x }`), or the general hint.
 */
function suspiciousText(walk: Walk, text: string, alias: string | undefined): void {
  const braced = alias === undefined ? bracedSlotHint(text) : undefined;
  if (braced !== undefined) suspicious(walk, braced.hint, braced.message);
  else suspicious(walk, alias ?? SUSPICIOUS_HINT);
}

/** A REF_SUSPICIOUS warning at the current string. */
function suspicious(
  walk: Walk,
  hint: string,
  message = "a literal string contains what looks like a reference",
): void {
  walk.out.push(
    makeDiagnostic("REF_SUSPICIOUS", message, pointerOf(walk), { callId: walk.options.callId, hint }),
  );
}
