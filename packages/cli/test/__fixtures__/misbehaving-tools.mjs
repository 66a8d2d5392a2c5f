// Tools that misbehave outside their call's promise, or ignore their abort signal.
export default {
  pause: {
    description: "returns once the CLI's stdout has failed (its reader closed the pipe): no timer to wait on",
    input: { type: "object", properties: {} },
    run: () =>
      new Promise((resolve) => {
        const stdout = process.stdout;
        if (stdout.errored || stdout.destroyed) resolve("paused");
        else stdout.once("error", () => resolve("paused")).once("close", () => resolve("paused"));
      }),
  },
  noisy: {
    description:
      "throws a message with a newline and a terminal escape sequence (as a remote error body may)",
    input: { type: "object", properties: {} },
    run: () => {
      throw new Error("line one\nline two\x1b[31mred");
    },
  },
  noisyCode: {
    description: "throws an error whose code carries a terminal escape sequence and a newline",
    input: { type: "object", properties: {} },
    run: () => {
      throw Object.assign(new Error("bad\x1b]0;title\x07 message"), { code: "E\x1b[2J\nX" });
    },
  },
  explode: {
    description: "always throws",
    input: { type: "object", properties: {} },
    run: () => {
      throw new Error("kaboom");
    },
  },
  throwLater: {
    description: "returns, then throws from a timer callback (an uncaught exception)",
    input: { type: "object", properties: {} },
    run: () => {
      setTimeout(() => {
        throw new Error("uncaught in timer");
      }, 0);
      return 1;
    },
  },
  rejectFloating: {
    description: "returns, leaving a rejected promise nobody handles",
    input: { type: "object", properties: {} },
    run: () => {
      Promise.reject(new Error("floating rejection"));
      return 1;
    },
  },
  waitForAbort: {
    description: "says it started, then settles only when its call is aborted (or at its timeout)",
    input: { type: "object", properties: {} },
    // a timer, so that the event loop does not empty (which would cancel the run as stalled)
    timeoutMs: 20_000,
    run: (_args, ctx) => {
      console.log("waitForAbort started");
      return new Promise((_resolve, reject) => {
        ctx.signal.addEventListener("abort", () => reject(new Error("aborted")), { once: true });
      });
    },
  },
  exits: {
    description: "ends the process with exit code 0 in the middle of its call",
    input: { type: "object", properties: {} },
    run: () => {
      process.exit(0);
    },
  },
  stubborn: {
    description: "says it started, then ignores its abort signal and waits ten minutes",
    input: { type: "object", properties: {} },
    run: () => {
      console.log("stubborn started");
      return new Promise((resolve) => setTimeout(() => resolve("late"), 600_000));
    },
  },
};
