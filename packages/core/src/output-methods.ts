/** How a written value combines with what is already at the target (SPEC §3). */
export type OutputMethod = "set" | "merge" | "assign" | "push" | "concat";

/** What Obelisk knows about one output method. */
export interface OutputMethodInfo {
  /** The method's name as written in `_outputMethod`. */
  readonly method: OutputMethod;
  /** Accumulating methods may be shared by several writers of one path (applied in plan order). */
  readonly accumulating: boolean;
  /** One-line description for docs and hints. */
  readonly description: string;
}

/** Every output method, once (STYLE §6: look properties up, no `if` chains). */
export const OUTPUT_METHODS: Readonly<Record<OutputMethod, OutputMethodInfo>> = {
  set: { method: "set", accumulating: false, description: "replace the value at the path (default)" },
  merge: {
    method: "merge",
    accumulating: true,
    description: "deep-merge objects into the value at the path",
  },
  assign: {
    method: "assign",
    accumulating: true,
    description: "shallow-merge an object into the value at the path",
  },
  push: { method: "push", accumulating: true, description: "append the value to the array at the path" },
  concat: {
    method: "concat",
    accumulating: true,
    description: "append the items of an array value to the array at the path",
  },
};

/** The default output method. */
export const DEFAULT_OUTPUT_METHOD: OutputMethod = "set";

/** True when `name` is a known output method. */
export function isOutputMethod(name: unknown): name is OutputMethod {
  return typeof name === "string" && Object.hasOwn(OUTPUT_METHODS, name);
}
