// `tick` answers a new number on every call (a tool "fixed" between runs); `send` is not idempotent.
let ticks = 0;
export default [
  { name: "tick", run: () => ++ticks },
  { name: "send", idempotent: false, run: () => "sent" },
];
