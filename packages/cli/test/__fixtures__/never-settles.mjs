// `wait` returns a promise that nothing settles: no timer, no I/O, and it ignores its signal.
export default {
  wait: {
    description: "awaits an event that never comes",
    input: { type: "object", properties: {} },
    run: () => new Promise(() => {}),
  },
  quick: {
    description: "returns at once",
    input: { type: "object", properties: {} },
    run: () => "quick",
  },
};
