// Plain-object tools with JSON Schema: a tools module needs no import (SPEC §9).
export default {
  echo: {
    description: "Returns its text",
    input: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
    run: ({ text }) => ({ text }),
  },
  explode: {
    description: "Always throws",
    input: { type: "object", properties: {} },
    run: () => {
      throw Object.assign(new Error("kaboom"), { code: "EXPLODED" });
    },
  },
  waitForAbort: {
    description: "Settles only when its call is aborted (or at its timeout)",
    input: { type: "object", properties: {} },
    timeoutMs: 20_000,
    run: (_args, ctx) =>
      new Promise((_resolve, reject) => {
        ctx.signal.addEventListener("abort", () => reject(new Error("aborted")), { once: true });
      }),
  },
};
