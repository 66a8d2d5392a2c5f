import type { JsonObject, JsonValue, Path } from "@obelisk/core";

type Container = Record<string, JsonValue> | JsonValue[];

const isContainer = (value: JsonValue | undefined): value is Container =>
  typeof value === "object" && value !== null;

/** A shallow copy of a container (own keys kept as data properties, `__proto__` included). */
const copyOf = (value: Container): Container => (Array.isArray(value) ? value.slice() : { ...value });

/** Stores `child` under `segment` of an owned container (a data property: never a prototype setter). */
function put(container: Container, segment: string | number, child: JsonValue): void {
  if (Array.isArray(container)) container[segment as number] = child;
  else
    Object.defineProperty(container, String(segment), {
      value: child,
      writable: true,
      enumerable: true,
      configurable: true,
    });
}

/** The child of a container at a segment, when there is one. */
function childOf(container: Container, segment: string | number): JsonValue | undefined {
  if (Array.isArray(container)) {
    if (typeof segment !== "number" || segment < 0 || segment >= container.length) return undefined;
    return container[segment];
  }
  const key = String(segment);
  return Object.hasOwn(container, key) ? container[key] : undefined;
}

/**
 * Removes values from a state tree, copy on write: each container on a removed path is copied once per
 * editor, however many removals go through it (a batch of evictions costs O(removals × depth + size of the
 * containers touched), not one copy of a wide container per removal). The original tree is never changed.
 * An array element is not spliced out: it becomes `null` (a hole), so no other element moves and every
 * other path keeps its value (decision record 0013). The new nodes are not frozen (working tree).
 */
export class TreeEditor {
  private readonly owned = new Set<Container>();
  private current: JsonObject;

  constructor(root: JsonObject) {
    this.current = root;
  }

  /** The edited tree (the original root while nothing was removed). */
  get root(): JsonObject {
    return this.current;
  }

  /** The value at a path of the edited tree (undefined: none). */
  get(path: Path): JsonValue | undefined {
    let node: JsonValue | undefined = this.current;
    for (let index = 0; index < path.length && node !== undefined; index++) {
      node = isContainer(node) ? childOf(node, path[index] as string | number) : undefined;
    }
    return node;
  }

  /**
   * Removes the value at `path` (an object key is deleted, an array element becomes `null`). False when
   * nothing is there (or the path is the state itself).
   */
  remove(path: Path): boolean {
    if (path.length === 0 || this.get(path) === undefined) return false;
    const parent = this.ownedAt(path);
    if (parent === undefined) return false;
    const last = path[path.length - 1] as string | number;
    if (Array.isArray(parent)) parent[last as number] = null;
    else delete parent[String(last)];
    return true;
  }

  /** The container holding `path`'s last segment, owned (copied where it was not); undefined when missing. */
  private ownedAt(path: Path): Container | undefined {
    let node = this.own(this.current) as Container;
    this.current = node as JsonObject;
    for (let index = 0; index < path.length - 1; index++) {
      const segment = path[index] as string | number;
      const child = childOf(node, segment);
      if (!isContainer(child)) return undefined;
      const copy = this.own(child);
      if (copy !== child) put(node, segment, copy);
      node = copy;
    }
    return node;
  }

  private own(container: Container): Container {
    if (this.owned.has(container)) return container;
    const copy = copyOf(container);
    this.owned.add(copy);
    return copy;
  }
}
