// Two tools named "echo" (an array of tools): the later one wins, with a registry warning.
export default [
  { name: "echo", description: "first", input: { type: "object" }, run: () => "first" },
  { name: "echo", description: "second", input: { type: "object" }, run: () => "second" },
];
