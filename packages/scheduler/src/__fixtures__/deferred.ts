/** Lets pending promise callbacks run (a few macrotask-free microtask turns). */
export async function flush(turns = 20): Promise<void> {
  for (let i = 0; i < turns; i++) await Promise.resolve();
}
