/** A count with its noun: `1 call`, `2 calls`, `3 dependencies`. */
export function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}
