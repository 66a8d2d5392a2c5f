/** The objects {@link keepShapes} holds for the life of the process. */
const KEPT: object[] = [];

/**
 * Keeps small, data-free objects alive for the life of the process, so that V8 keeps their hidden
 * classes. V8 frees a class's hidden class once no instance of it is alive and throws away the optimized
 * code that checks for it; objects that live only during a run (a runner, a store overlay, an invoke
 * request) would otherwise make every full GC between runs send the next run back through the
 * interpreter (docs/decisions/0007-keep-run-shapes.md). Never pass objects that hold user data.
 */
export function keepShapes(...objects: object[]): void {
  for (const object of objects) KEPT.push(object);
}
