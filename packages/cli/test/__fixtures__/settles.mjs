// The tools of never-settles.mjs, fixed: `wait` returns.
export default {
  wait: { description: "returns at once", input: { type: "object", properties: {} }, run: () => "waited" },
  quick: { description: "returns at once", input: { type: "object", properties: {} }, run: () => "quick" },
};
