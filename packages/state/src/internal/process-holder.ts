import { hostname } from "node:os";
import { threadId } from "node:worker_threads";
import type { LockHolder } from "../lock-holder.js";

/** This JS thread of this process as a lock's holder, without a heartbeat (the memory store's lock). */
export const processHolder = (): LockHolder => ({
  host: hostname(),
  pid: process.pid,
  workerThreadId: threadId,
  sameProcess: true,
});
