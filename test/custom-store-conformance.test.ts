import { describeStoreConformance } from "@obelisk/state/conformance";
import { createMemoryStore, type StateStore } from "obelisk";

// A backend written outside @obelisk/state runs the conformance suite through its published entry
// (`@obelisk/state/conformance`, built dist), as the author of a Postgres or Redis store would. Here the
// backend hands every call to a memory store, so every case must pass.
function delegatingStore(inner: StateStore): StateStore {
  return new Proxy(inner, {
    get(target, key) {
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

describeStoreConformance("a backend outside the package", (options) =>
  delegatingStore(createMemoryStore(options)),
);
