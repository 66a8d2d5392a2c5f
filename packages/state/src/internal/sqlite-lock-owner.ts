import { readFileSync, readlinkSync } from "node:fs";
import { hostname } from "node:os";
import { threadId as currentThreadId } from "node:worker_threads";

/**
 * Who holds a SQLite thread lock, from its `locks` row: `host` and `pid` (columns of their own), and, from
 * the owner text of rows written since 2026-11-26 (`<host>:<pid>:t<worker thread id>:<token>`), the worker
 * thread (`0`: the main thread) and the per-store token. Rows of earlier versions (`<host>:<pid>:<token>`)
 * name no thread; their token is not told apart.
 */
export interface LockOwner {
  /** Host name of the holder's machine. */
  readonly host: string;
  /** Its process id. */
  readonly pid: number;
  /** Its worker thread id (`worker_threads.threadId`; 0 is the main thread), when the row names one. */
  readonly workerThreadId?: number;
  /** The holding store's token (one per store), when the row names a thread. */
  readonly token?: string;
  /** The holder's boot and pid namespace (`<boot id>.<pid namespace inode>`), when its row names them. */
  readonly space?: string;
}

/**
 * This process's boot and pid namespace, on Linux: containers sharing a host name (host networking, a fixed
 * `--hostname`) each number their processes from 1, so a pid names a process only within one of them.
 */
function readSpace(): string | undefined {
  try {
    const boot = readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim();
    const namespace = /\[(\d+)\]/.exec(readlinkSync("/proc/self/ns/pid"))?.[1];
    return boot === "" || namespace === undefined ? undefined : `${boot}.${namespace}`;
  } catch {
    return undefined;
  }
}

const SPACE = readSpace();

/**
 * True unless the owner's row names another boot or pid namespace than this process's (another container
 * with this host name: its pids are not ours, only its heartbeat tells it is gone). A row of an earlier
 * version, or a side without `/proc`, names none: host and pid are trusted as before.
 */
export const sameSpace = (owner: LockOwner): boolean =>
  owner.space === undefined || SPACE === undefined || owner.space === SPACE;

/** The owner text a store of this thread writes in its rows (see {@link LockOwner}). */
export const ownerText = (token: string): string =>
  `${hostname()}:${process.pid}:t${currentThreadId}:${token}${SPACE === undefined ? "" : `@${SPACE}`}`;

const OWNER_TAIL = /:t(\d+):([^:@]+)(?:@([^:@]+))?$/;

/** The owner of a `locks` row. */
export function lockOwner(row: {
  readonly owner: string;
  readonly host: string;
  readonly pid: number;
}): LockOwner {
  const tail = OWNER_TAIL.exec(row.owner);
  if (tail === null) return { host: row.host, pid: row.pid };
  const owner = { host: row.host, pid: row.pid, workerThreadId: Number(tail[1]), token: tail[2] as string };
  return tail[3] === undefined ? owner : { ...owner, space: tail[3] };
}

/**
 * True when the owner is this process (same host, pid namespace and pid; the pid may also be an earlier
 * process's).
 */
export const inThisProcess = (owner: LockOwner): boolean =>
  owner.host === hostname() && owner.pid === process.pid && sameSpace(owner);

/** True when the owner is this process and this worker thread (or the main thread, from the main thread). */
export const inThisThread = (owner: LockOwner): boolean =>
  inThisProcess(owner) && owner.workerThreadId === currentThreadId;

const threadName = (id: number): string => (id === 0 ? "main thread" : `worker thread ${id}`);

/**
 * The owner as a record keeps it, the same read from any process: `pid 4711 on build-7 (worker thread 2)`;
 * a row of an earlier version names no thread (`pid 4711 on build-7`).
 */
export function describeOwner(owner: LockOwner): string {
  const at = `pid ${owner.pid} on ${owner.host}`;
  return owner.workerThreadId === undefined ? at : `${at} (${threadName(owner.workerThreadId)})`;
}

/**
 * The owner as seen from this thread, for an error: `another engine (store) of this process, on the same JavaScript thread`,
 * `worker thread 2 of this process`, `the main thread of this process`, `another engine or worker thread of
 * this process` (a row naming no thread), or `process 4711 on host build-7`.
 */
export function describeOwnerFromHere(owner: LockOwner): string {
  if (!inThisProcess(owner)) return `process ${owner.pid} on host ${owner.host}`;
  const here = `pid ${owner.pid} on ${owner.host}`;
  if (owner.workerThreadId === undefined) return `another engine or worker thread of this process (${here})`;
  if (owner.workerThreadId === currentThreadId)
    return `another engine (store) of this process, on the same JavaScript thread (${here})`;
  return `the ${threadName(owner.workerThreadId)} of this process (${here})`;
}

/** The owner as THREAD_BUSY data gives it (`sameProcess`: same host and pid as the thread that throws). */
export function ownerData(owner: LockOwner): {
  readonly host: string;
  readonly pid: number;
  readonly workerThreadId?: number;
  readonly sameProcess: boolean;
} {
  return {
    host: owner.host,
    pid: owner.pid,
    ...(owner.workerThreadId === undefined ? {} : { workerThreadId: owner.workerThreadId }),
    sameProcess: inThisProcess(owner),
  };
}

/** The tokens of this JS thread's stores with the threads whose locks they hold (shared by module copies). */
type TokenRegistry = Map<string, (threadId: string) => boolean>;

const REGISTRY_KEY = Symbol.for("obelisk.state.sqliteLockHolders");

function registry(): TokenRegistry {
  const global = globalThis as { [REGISTRY_KEY]?: TokenRegistry };
  global[REGISTRY_KEY] ??= new Map();
  return global[REGISTRY_KEY];
}

/** Registers (or, with `undefined`, removes) a store's token and how it tells the thread locks it holds. */
export function registerHolder(token: string, holds: ((threadId: string) => boolean) | undefined): void {
  if (holds === undefined) registry().delete(token);
  else registry().set(token, holds);
}

/**
 * True when a row of this thread (same host, pid and worker thread) is held by no store of this thread:
 * its store released it without deleting the row, or an earlier process with this pid left it (a
 * container's pid 1). Stores in another `vm` context of this thread have their own registry.
 */
export function heldByNoStoreHere(owner: LockOwner, threadId: string): boolean {
  if (!inThisThread(owner) || owner.token === undefined) return false;
  return registry().get(owner.token)?.(threadId) !== true;
}
