import { describeStoreConformance } from "./conformance/describe-store-conformance.js";
import { createMemoryStore } from "./memory-store.js";

describeStoreConformance("memory", (options) => createMemoryStore(options));
