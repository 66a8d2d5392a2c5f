import { displayText } from "./display-text.js";
import type { Output } from "./output.js";
import { type CallStatus, formatDuration, statusColor, statusSymbol } from "./status-style.js";

/** What the progress display needs to know about engine events (mapped from the engine's event union). */
export type ProgressEvent =
  | {
      readonly type: "call-start";
      readonly callId: string;
      readonly tool: string;
      readonly attempt: number;
    }
  | {
      readonly type: "call-retry";
      readonly callId: string;
      readonly tool: string;
      readonly attempt: number;
      readonly message?: string;
    }
  | {
      readonly type: "call-end";
      readonly callId: string;
      readonly tool: string;
      readonly status: CallStatus;
      readonly durationMs?: number;
      readonly detail?: string;
      /** The stack of the error the tool threw, printed below the line (`--verbose`, `OBELISK_DEBUG`). */
      readonly stack?: string;
    }
  | {
      /** This run ended an earlier run of the thread (`cancelled`): a resume continued it, or it ran its plan again. */
      readonly type: "run-superseded";
      readonly runId: string;
      readonly resumed: boolean;
    };

/** Counts shown by the progress line. */
export interface ProgressCounts {
  /** Not started yet. */
  readonly pending: number;
  /** Running now. */
  readonly running: number;
  /** Succeeded or satisfied. */
  readonly done: number;
  /** Failed. */
  readonly failed: number;
  /** Blocked, waiting, rejected, deferred or cancelled. */
  readonly blocked: number;
}

/** A live progress display: plain lines when stdout is not a TTY, plus a redrawn status line on a TTY. */
export interface Progress {
  /** Feeds one event. */
  handle(event: ProgressEvent): void;
  /** Current counts. */
  counts(): ProgressCounts;
  /** Stops the display (clears the status line and its timer). */
  stop(): void;
}

const SPINNER = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];

/** Creates the progress display of a run of `total` calls (`run` and `resume`). */
export function createProgress(output: Output, total: number, now: () => number = Date.now): Progress {
  const started = now();
  const running = new Set<string>();
  const ended = new Map<string, CallStatus>();
  const live = output.format === "text" && output.isTTY;
  const c = output.colors;
  let frame = 0;
  let timer: ReturnType<typeof setInterval> | undefined;

  const counts = (): ProgressCounts => {
    let done = 0;
    let failed = 0;
    let blocked = 0;
    for (const status of ended.values()) {
      if (status === "succeeded" || status === "satisfied") done++;
      else if (status === "failed") failed++;
      else blocked++;
    }
    const seen = Math.max(total, ended.size + running.size);
    return { pending: seen - ended.size - running.size, running: running.size, done, failed, blocked };
  };
  const statusLine = (): string => {
    const n = counts();
    const parts = [
      `${n.pending} pending`,
      c.cyan(`${n.running} running`),
      c.green(`${n.done} done`),
      ...(n.failed > 0 ? [c.red(`${n.failed} failed`)] : []),
      c.yellow(`${n.blocked} blocked`),
    ];
    const spin = SPINNER[frame++ % SPINNER.length] ?? "";
    return `${c.cyan(spin)} ${parts.join(c.dim(" · "))} ${c.dim(formatDuration(now() - started))}`;
  };
  const redraw = (): void => {
    if (live) output.stdout.write(`\r\x1b[2K${statusLine()}`);
  };
  const print = (text: string): void => {
    if (output.format !== "text") return;
    output.stdout.write(live ? `\r\x1b[2K${text}\n` : `${text}\n`);
    redraw();
  };
  const name = (callId: string, tool: string): string =>
    callId.startsWith(`${tool}$`) ? c.bold(callId) : `${c.bold(callId)} ${c.dim(`(${tool})`)}`;

  if (live) {
    timer = setInterval(redraw, 100);
    timer.unref();
  }
  return {
    handle(event) {
      switch (event.type) {
        case "call-start":
          running.add(event.callId);
          if (event.attempt <= 1) print(`  ${c.cyan("▶")} start  ${name(event.callId, event.tool)}`);
          return;
        case "call-retry":
          print(
            `  ${c.yellow("↻")} retry  ${name(event.callId, event.tool)} attempt ${event.attempt}${event.message ? `: ${displayText(event.message)}` : ""}`,
          );
          return;
        case "call-end": {
          running.delete(event.callId);
          ended.set(event.callId, event.status);
          const time = event.durationMs === undefined ? "" : ` ${c.dim(formatDuration(event.durationMs))}`;
          const detail = event.detail === undefined ? "" : c.dim(` — ${displayText(event.detail)}`);
          const status = statusColor(c, event.status)(`${statusSymbol(event.status)} ${event.status}`);
          print(`  ${status} ${name(event.callId, event.tool)}${time}${detail}`);
          if (event.stack !== undefined) print(c.dim(indentedStack(event.stack)));
          return;
        }
        case "run-superseded": {
          const how = event.resumed ? "this run continued it" : "this run ran the same plan to its end";
          print(
            `  ${c.dim(`${statusSymbol("cancelled")} ended`)}  run ${c.bold(event.runId)} ${c.dim(`— ${how}`)}`,
          );
          return;
        }
      }
    },
    counts,
    stop() {
      if (timer !== undefined) clearInterval(timer);
      if (live) output.stdout.write("\r\x1b[2K");
    },
  };
}

/** A stack below its call's line: each line indented, control characters shown as text. */
export function indentedStack(stack: string): string {
  return stack
    .split("\n")
    .map((line) => `      ${displayText(line)}`)
    .join("\n");
}
