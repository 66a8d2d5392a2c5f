/**
 * Module hooks (registered after tsx's, so their `resolve` runs first and sees tsx's answer) that load a
 * `.ts` or `.tsx` file as an ES module whatever its nearest package.json says. tsx gives such a file the
 * format of its package (CommonJS without `"type": "module"`, also with no package.json at all): an ES
 * tools module then failed to load ("Cannot require() ES Module … in a cycle", or top-level await refused).
 * Left alone: files of packages under node_modules (`node_modules/<package>/…`, pnpm's `.pnpm/…/node_modules/
 * <package>/…` too; not a dot folder of its own such as `node_modules/.cache/tools.ts`, which is no package:
 * a tools module there failed "in a cycle", review s41 r2 #10), `require` calls (a `.cts` module's), and
 * `.cts`/`.mts`/`.js`.
 * Plain JavaScript, registered as a `data:` URL: hooks run on Node's loader thread, from source or from dist.
 */
const HOOKS_SOURCE = `
const TYPESCRIPT = /^file:(?![^?#]*\\/node_modules\\/[^.\\/?#])[^?#]*\\.tsx?(?:[?#]|$)/;
export async function resolve(specifier, context, nextResolve) {
  const resolved = await nextResolve(specifier, context);
  const required = context.conditions?.includes("require") === true && !context.conditions.includes("import");
  if (resolved.format !== "commonjs" || required || !TYPESCRIPT.test(resolved.url)) return resolved;
  return { ...resolved, format: "module" };
}
`;

/** The `data:` URL of the hooks module that makes `.ts` and `.tsx` files ES modules (for `module.register`). */
export const TYPESCRIPT_MODULE_HOOKS = `data:text/javascript,${encodeURIComponent(HOOKS_SOURCE)}`;
