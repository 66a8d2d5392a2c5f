import type { Adapter } from "./adapter.js";

/** Every engine under test, by stable key (also the order engines run in, interleaved). */
export const ENGINE_KEYS = [
  "naive",
  "async-auto",
  "p-graph",
  "langgraph",
  "obelisk-memory",
  "obelisk-sqlite",
] as const;

/** The key of one engine. */
export type EngineKey = (typeof ENGINE_KEYS)[number] | "p-graph-priorities";

/** Loads an engine's adapter lazily (so a child process only loads the engine it measures). */
export async function loadAdapter(key: EngineKey): Promise<Adapter> {
  switch (key) {
    case "naive":
      return (await import("./naive.js")).naiveAdapter;
    case "async-auto":
      return (await import("./async-auto.js")).asyncAutoAdapter;
    case "p-graph":
      return (await import("./p-graph.js")).createPGraphAdapter(false);
    case "p-graph-priorities":
      return (await import("./p-graph.js")).createPGraphAdapter(true);
    case "langgraph":
      return (await import("./langgraph.js")).langGraphAdapter;
    case "obelisk-memory":
      return (await import("./obelisk.js")).createObeliskAdapter("memory");
    case "obelisk-sqlite":
      return (await import("./obelisk.js")).createObeliskAdapter("sqlite");
  }
}
