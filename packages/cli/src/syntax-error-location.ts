import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, statSync } from "node:fs";
import { dirname, extname, resolve } from "node:path";
import { displayText } from "./display-text.js";

/** The extensions `node --check` is run on (a TypeScript module's syntax error is tsx's to report). */
const CHECKED = new Set([".js", ".mjs", ".cjs"]);

/** How many modules, the tools module and those it imports, are checked at most (error path only). */
const MAX_CHECKED = 20;

/** How many characters of the line that holds the error are quoted. */
const SOURCE_CHARS = 80;

/** Where a syntax error is: `/abs/x.mjs:2:11`, and the start of the line. */
interface SyntaxLocation {
  readonly at: string;
  readonly source: string;
}

/**
 * Node's head of a syntax error (`/abs/x.cjs:2\nconst x = ;\n          ^`): the stack of a CommonJS module's
 * error, and what `node --check` prints. Node 20 puts none on an ES module's error.
 */
const HEAD = /^(\S[^\n]*?):(\d+)\r?\n([^\n]*)\r?\n( *)\^/;

function fromHead(text: string | undefined): SyntaxLocation | undefined {
  const head = HEAD.exec(text ?? "");
  if (head === null) return undefined;
  const [, file, line, source = "", indent = ""] = head;
  const trimmed = source.trim();
  const quoted = trimmed.length > SOURCE_CHARS ? `${trimmed.slice(0, SOURCE_CHARS)}…` : trimmed;
  return { at: `${file}:${line}:${indent.length + 1}`, source: displayText(quoted) };
}

/** `node --check` of one file, in a child (it runs none of the file's code): where its syntax error is. */
function checkSyntax(path: string): SyntaxLocation | undefined {
  const checked = spawnSync(process.execPath, ["--check", path], { encoding: "utf8", timeout: 10_000 });
  // (a .js ES module outside a "type": "module" package, which the import read as one by its syntax)
  if (checked.status === 0 || checked.stderr.includes("Cannot use import statement outside a module"))
    return undefined;
  return fromHead(checked.stderr);
}

/** The relative specifiers a module's text imports or requires (`"./helpers.mjs"`): a lexical guess. */
const RELATIVE = /(?:\bfrom|\bimport|\brequire\s*\(|\bimport\s*\()\s*["'](\.{1,2}\/[^"'\n]+)["']/g;

/** The files of the relative imports of `path` that `node --check` can read (existing .js, .mjs, .cjs). */
function relativeImports(path: string): string[] {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch {
    return [];
  }
  const files: string[] = [];
  for (const match of text.matchAll(RELATIVE)) {
    const file = resolve(dirname(path), match[1] ?? "");
    if (CHECKED.has(extname(file)) && existsSync(file) && statSync(file).isFile()) files.push(file);
  }
  return files;
}

/**
 * Where the syntax error a JavaScript tools module (`path`) failed to load with is, as
 * `/abs/x.mjs:2:11: Unexpected token ';' (in: const x = ;)`; undefined for any other error, or when it
 * cannot be found. A CommonJS module's error carries it; for an ES module (Node 20 gives no place)
 * `node --check` is run in a child on the module, then on the modules it imports by relative path (found in
 * their text), at most {@link MAX_CHECKED}: only on this error path, running none of their code.
 */
export function syntaxErrorLocation(error: unknown, path: string): string | undefined {
  if ((error as { name?: unknown } | null)?.name !== "SyntaxError") return undefined;
  const message = (error as { message?: unknown }).message;
  const text = typeof message === "string" ? message : "";
  const described = (location: SyntaxLocation): string =>
    `${location.at}: ${text}${location.source === "" ? "" : ` (in: ${location.source})`}`;
  const stack = (error as { stack?: unknown }).stack;
  const own = fromHead(typeof stack === "string" ? stack : undefined);
  if (own !== undefined) return described(own);
  if (!CHECKED.has(extname(path))) return undefined;
  const queue = [path];
  const seen = new Set<string>();
  while (queue.length > 0 && seen.size < MAX_CHECKED) {
    const file = queue.shift() as string;
    if (seen.has(file)) continue;
    seen.add(file);
    const found = checkSyntax(file);
    if (found !== undefined) return described(found);
    queue.push(...relativeImports(file));
  }
  return undefined;
}
