/** Reference shapes for the parser benchmarks: names, nested paths, indices, negative indices, quoted keys. */
const SHAPES: readonly ((i: number) => string)[] = [
  (i) => `†input.userName${i}`,
  (i) => `†state.user.profile.field${i % 97}`,
  (i) => `†state.items[${i % 1000}].name`,
  (i) => `†calls.search$${i}`,
  (i) => `†state.rows[-1].cells.${i % 10}`,
  (i) => `†state.user["first name"].v${i % 13}`,
  (i) => `†state.a.b.c.d.e.f.g${i % 7}`,
  () => "†input",
];

/** `count` references cycling through the benchmark shapes (the same list for every parser benchmark). */
export function mixedReferences(count: number): string[] {
  return Array.from({ length: count }, (_, i) => (SHAPES[i % SHAPES.length] as (i: number) => string)(i));
}
