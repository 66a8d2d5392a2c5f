import { type ChildProcess, fork } from "node:child_process";
import { fileURLToPath } from "node:url";
import type { EngineKey } from "../adapters/registry.js";
import type { ChildReply, ChildRequest } from "./makespan-protocol.js";
import type { MakespanDefinition } from "./makespan-setup.js";

const CHILD = fileURLToPath(new URL("./makespan-child.ts", import.meta.url));

/** One engine's child process: asked one request at a time. */
export interface EngineChild {
  readonly key: EngineKey;
  /** The engine's name (from the child's adapter). */
  readonly name: string;
  /** Sends `request` and resolves with the child's reply (rejects if the child dies first). */
  ask(request: ChildRequest): Promise<ChildReply>;
  /** Ends the child. */
  close(): void;
}

/** Forks the child of `key` (same Node flags as this process: tsx, --expose-gc) and waits until it is ready. */
export function startChild(key: EngineKey, definition: MakespanDefinition): Promise<EngineChild> {
  const child: ChildProcess = fork(CHILD, [key, JSON.stringify(definition)], {
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  let waiting: { resolve: (reply: ChildReply) => void; reject: (error: Error) => void } | undefined;
  child.on("message", (reply: ChildReply) => {
    const current = waiting;
    waiting = undefined;
    current?.resolve(reply);
  });
  child.on("exit", (code, signal) => {
    const current = waiting;
    waiting = undefined;
    current?.reject(new Error(`makespan child ${key} exited (${code ?? signal})`));
  });
  const next = () =>
    new Promise<ChildReply>((resolve, reject) => {
      waiting = { resolve, reject };
    });
  const close = () => {
    child.kill();
  };
  return next().then(
    (ready) => ({
      key,
      name: ready.type === "ready" ? ready.name : key,
      ask(request) {
        const reply = next();
        child.send(request);
        return reply;
      },
      close,
    }),
    (error: unknown) => {
      close();
      throw error;
    },
  );
}
