import { ObeliskError } from "@obelisk/core";
import { afterEach, describe, expect, it, vi } from "vitest";

// What better-sqlite3 throws when its native module was never built (its install script did not run:
// npm 11 and pnpm 10 may skip it) and when it was built for another Node.js. Both come from the first
// `new Database(…)`, not from the import.
const failure = vi.hoisted(() => ({ error: undefined as Error | undefined }));
vi.mock("better-sqlite3", async (importOriginal) => {
  const actual = await importOriginal<{ default: new (...args: unknown[]) => unknown }>();
  const Database = function (this: unknown, ...args: unknown[]) {
    if (failure.error !== undefined) throw failure.error;
    return new actual.default(...args);
  };
  return { ...actual, default: Database };
});

const { createSqliteStore } = await import("./sqlite-store.js");

const missing = new Error(
  "Could not locate the bindings file. Tried:\n → /app/node_modules/better-sqlite3/build/better_sqlite3.node\n → /app/node_modules/better-sqlite3/build/Debug/better_sqlite3.node",
);
const mismatch = Object.assign(
  new Error(
    "The module '/app/node_modules/better-sqlite3/build/Release/better_sqlite3.node'\nwas compiled against a different Node.js version using\nNODE_MODULE_VERSION 127. This version of Node.js requires\nNODE_MODULE_VERSION 115. Please try re-compiling or re-installing\nthe module (for instance, using `npm rebuild` or `npm install`).",
  ),
  { code: "ERR_DLOPEN_FAILED" },
);
const damaged = Object.assign(
  new Error("/app/node_modules/better-sqlite3/build/Release/better_sqlite3.node: file too short"),
  { code: "ERR_DLOPEN_FAILED" },
);

function openError(error: Error): ObeliskError {
  failure.error = error;
  try {
    createSqliteStore(":memory:");
  } catch (thrown) {
    if (ObeliskError.is(thrown)) return thrown;
    throw thrown;
  }
  throw new Error("the store opened");
}

describe("better-sqlite3's native module missing or not loading", () => {
  afterEach(() => {
    failure.error = undefined;
  });

  it("never built: STORE_ERROR native-missing, a one-line message and how to build it", () => {
    const error = openError(missing);
    expect(error.code).toBe("STORE_ERROR");
    expect(error.message).toBe(
      "the SQLite store needs better-sqlite3's native module, which was never built on this machine",
    );
    expect(error.hint).toMatch(/^build it: `npm rebuild better-sqlite3`.*pnpm approve-builds/);
    expect(error.data).toEqual({ reason: "native-missing", file: ":memory:" });
    expect(error.cause).toBe(missing);
  });

  it("built for another Node.js: STORE_ERROR native-mismatch naming this Node.js", () => {
    const error = openError(mismatch);
    expect(error.code).toBe("STORE_ERROR");
    expect(error.message).toBe(
      `better-sqlite3's native module does not load in this Node.js ${process.version}: it was built for another Node.js version`,
    );
    expect(error.hint).toMatch(/^rebuild it with this Node.js: `npm rebuild better-sqlite3`/);
    expect(error.data).toEqual({ reason: "native-mismatch", file: ":memory:" });
  });

  it("a damaged module file: native-mismatch with the loader's reason", () => {
    const error = openError(damaged);
    expect(error.message).toMatch(/does not load in this Node\.js v[\d.]+: file too short$/);
    expect(error.data).toEqual({ reason: "native-mismatch", file: ":memory:" });
  });

  it("any other failure is the usual STORE_ERROR, and a working module opens", () => {
    const error = openError(new Error("disk I/O error"));
    expect(error.code).toBe("STORE_ERROR");
    expect(error.data).toBeUndefined();
    expect(error.message).toContain("disk I/O error");
    failure.error = undefined;
    createSqliteStore(":memory:").close();
  });
});
