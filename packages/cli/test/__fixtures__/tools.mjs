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
};
